/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.SweepReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code hybris sweep}: deletes unreferenced objects older than the grace period on every cloud. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "Delete objects under the Hybris prefix on every cloud that no metadata references and that "
                + "are older than hybris.gc.grace (left by crashed clients or failed deletions). Never touches "
                + "anything outside the prefix.")
final class SweepCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Override
    public Integer call() {
        Session session = root.session;
        session.hybris();
        SweepReport r;
        try (Progress progress = session.items("sweeping orphans", "objects")) {
            r = session.hybris().sweepOrphans(progress::set);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("examined", r.examined());
        doc.put("referenced", r.referenced());
        doc.put("tooYoung", r.tooYoung());
        doc.put("deleted", r.deleted());
        doc.put("failed", r.failed());
        session.emit(doc, () -> session.out().println("sweep: examined " + r.examined() + " objects, "
                + r.referenced() + " referenced, " + r.tooYoung() + " younger than the grace period, "
                + r.deleted() + " deleted, " + r.failed() + " failed to delete"));
        return r.failed() > 0 ? ExitCode.UNAVAILABLE : ExitCode.OK;
    }
}
