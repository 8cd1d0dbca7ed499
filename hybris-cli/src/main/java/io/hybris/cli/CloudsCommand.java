/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.CloudStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code hybris clouds}: a health probe of every cloud, then each cloud's rank, latency and errors. */
@Command(name = "clouds", mixinStandardHelpOptions = true,
        description = {"Probe every cloud (write, read back and delete a small object on each), then show each "
                + "cloud's rank for small reads, its read and write latency estimates, whether it is failing, "
                + "and the errors this run met with their latest message.",
                "The CLI is a new client on every run, so estimates and errors are those of this run's probe.",
                "Exit code 4 when fewer than f+1 clouds answered the probe."})
final class CloudsCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = "--no-probe", description = "Do not probe: show what this run knows (nothing, unless a "
            + "configured hybris.ranking.probe-on-open measured the clouds).")
    boolean noProbe;

    @Override
    public Integer call() {
        Session session = root.session;
        int probed = noProbe ? 0 : session.hybris().refreshLatencyRanking();
        List<CloudStatus> status = session.hybris().cloudStatus();
        int f = session.hybris().config().f();
        long healthy = status.stream().filter(s -> !s.failing()).count();
        boolean enough = noProbe || healthy >= f + 1;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("f", f);
        doc.put("probed", !noProbe);
        doc.put("probes", probed);
        doc.put("healthy", healthy);
        doc.put("clouds", status.stream().map(CloudView::json).toList());
        session.emit(doc, () -> {
            CloudView.table(status).print(session.out());
            session.out().println((noProbe ? "not probed" : healthy + " of " + status.size()
                    + " clouds answered the probe") + "; f=" + f + " (writes need f+1 clouds)");
        });
        if (!enough) {
            // the report is printed already (with --json, the one document): a failure's document would be a second
            session.err().println("hybris: only " + healthy + " of " + status.size()
                    + " clouds answered the probe; writes need f+1=" + (f + 1)
                    + " (check the failing clouds' configuration and reachability)");
            return ExitCode.UNAVAILABLE;
        }
        return ExitCode.OK;
    }
}
