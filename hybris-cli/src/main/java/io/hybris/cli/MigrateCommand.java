/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code hybris migrate FROM TO}: moves every copy off a cloud being retired. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Move every copy off cloud FROM onto cloud TO (or, where TO already holds one, another "
                + "cloud), repairing what is missing on the way, so that FROM can leave the configuration with every "
                + "key still on f+1 clouds (docs/scrub.md). Chunked values move as a new version with the same "
                + "bytes. This run writes nothing to FROM; other clients may, until they are reconfigured: run it "
                + "again until it moves nothing.",
                "Exit code 4 when copies could not be moved, 1 when a key is unrecoverable."})
final class MigrateCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "FROM", description = "The cloud id to move off.")
    String from;

    @Parameters(index = "1", paramLabel = "TO", description = "The cloud id to move onto.")
    String to;

    @Option(names = "--state", paramLabel = "FILE", description = "State file: resume after the last completed page.")
    Path state;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "0", description = "At most N cloud requests "
            + "per second (0: unlimited).")
    double maxRequests;

    @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "0", description = "At most SIZE bytes per "
            + "second (0: unlimited).")
    String maxBytes;

    @Override
    public Integer call() {
        Session session = root.session;
        return ScrubView.run(session, "migrate " + from + " -> " + to,
                ScrubCommand.options(List.of(), "", false, true, state, maxRequests, maxBytes),
                o -> session.hybris().migrate(from, to, o));
    }
}
