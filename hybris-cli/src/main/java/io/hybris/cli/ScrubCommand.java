/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ScrubOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code hybris scrub}: checks (and repairs) every current version's copies. */
@Command(name = "scrub", mixinStandardHelpOptions = true,
        description = {"Check that every cloud listed in each current version's metadata holds its copy: by listing "
                + "(one LIST request per 1,000 objects per cloud, no GET for values stored whole), or --deep by "
                + "downloading and hash-checking every copy. --repair rebuilds missing and corrupt copies "
                + "(docs/scrub.md).",
                "Exit code 4 when copies are left missing or corrupt (or could not be checked: a cloud could not be "
                        + "listed or did not answer), 1 when a key is unrecoverable."})
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

    @Mixin
    ScrubPacing pacing;

    @Override
    public Integer call() {
        Session session = root.session;
        ScrubOptions o = ScrubOptions.listing().containers(containers.toArray(String[]::new)).prefix(prefix)
                .deep(deep).repair(repair);
        return ScrubView.run(session, "scrub", pacing.apply(o), x -> session.hybris().scrub(x));
    }
}
