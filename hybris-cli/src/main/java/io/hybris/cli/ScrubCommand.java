/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ScrubOptions;
import io.hybris.spi.support.ConfigValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hybris scrub}: checks (and repairs) every current version's copies. */
@Command(name = "scrub", mixinStandardHelpOptions = true,
        description = {"Check that every cloud listed in each current version's metadata holds its copy: by listing "
                + "(one LIST request per 1,000 objects per cloud, no GET for values stored whole), or --deep by "
                + "downloading and hash-checking every copy. --repair rebuilds missing and corrupt copies "
                + "(docs/scrub.md).",
                "Exit code 4 when copies are left missing or corrupt (or a cloud could not be listed), 1 when a key "
                        + "is unrecoverable."})
final class ScrubCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = {"-c", "--container"}, paramLabel = "CONTAINER", description = "Only this container "
            + "(repeatable; default: every container).")
    List<String> containers = List.of();

    @Option(names = {"-p", "--prefix"}, paramLabel = "PREFIX", defaultValue = "", description = "Only keys starting "
            + "with PREFIX.")
    String prefix;

    @Option(names = "--deep", description = "Download and hash-check every copy (finds silent corruption).")
    boolean deep;

    @Option(names = "--repair", description = "Rebuild missing and corrupt copies.")
    boolean repair;

    @Option(names = "--state", paramLabel = "FILE", description = "State file: resume after the last completed page, "
            + "and skip ranges unchanged since last verified.")
    Path state;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "0", description = "At most N cloud requests "
            + "per second (0: unlimited).")
    double maxRequests;

    @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "0", description = "At most SIZE bytes per "
            + "second, e.g. 50MiB (0: unlimited).")
    String maxBytes;

    @Override
    public Integer call() {
        Session session = root.session;
        return ScrubView.run(session, "scrub", options(containers, prefix, deep, repair, state, maxRequests, maxBytes),
                o -> session.hybris().scrub(o));
    }

    static ScrubOptions options(List<String> containers, String prefix, boolean deep, boolean repair, Path state,
                                double maxRequests, String maxBytes) {
        long bytes;
        try {
            bytes = ConfigValues.parseSize("--max-bytes", maxBytes);
        } catch (RuntimeException e) {
            throw CliException.usage("--max-bytes " + maxBytes + " is not a size (e.g. 0, 50MiB)");
        }
        if (!(maxRequests >= 0)) {
            throw CliException.usage("--max-requests must be >= 0, not " + maxRequests);
        }
        ScrubOptions o = ScrubOptions.listing().containers(containers.toArray(String[]::new)).prefix(prefix).deep(deep)
                .repair(repair).requestsPerSecond(maxRequests).bytesPerSecond(bytes);
        return state == null ? o : o.stateFile(state);
    }
}
