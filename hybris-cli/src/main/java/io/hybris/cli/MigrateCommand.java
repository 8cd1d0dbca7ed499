/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ScrubOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

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

    @Mixin
    ScrubPacing pacing;

    @Override
    public Integer call() {
        Session session = root.session;
        return ScrubView.run(session, "migrate " + from + " -> " + to,
                pacing.apply(ScrubOptions.listing().repair(true)),
                o -> session.hybris().migrate(from, to, o));
    }
}
