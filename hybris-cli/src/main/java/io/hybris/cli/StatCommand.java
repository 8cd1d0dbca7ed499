/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code hybris stat CONTAINER KEY}: the current version's metadata. */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = "Show the current version of a key from metadata (no cloud is read): version, timestamp "
                + "(sequence and writing client), size, SHA-256 (of the chunk manifest for a chunked value), the "
                + "clouds holding it and its application metadata.")
final class StatCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Override
    public Integer call() {
        Session session = root.session;
        VersionInfo v = session.hybris().describe(container, key)
                .orElseThrow(() -> CliException.notFound(container, key));
        session.emit(VersionView.json(container, key, v),
                () -> session.out().print(VersionView.text(container, key, v)));
        return ExitCode.OK;
    }
}
