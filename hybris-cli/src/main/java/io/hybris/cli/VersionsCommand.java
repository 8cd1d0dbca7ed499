/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code hybris versions CONTAINER KEY}: the versions Hybris keeps, which is the current one only. */
@Command(name = "versions", mixinStandardHelpOptions = true,
        description = "List the stored versions of a key. Hybris keeps only the current version (superseded "
                + "versions are garbage-collected), so this prints that one; there is no history.")
final class VersionsCommand implements Callable<Integer> {
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
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("container", container);
        doc.put("key", key);
        doc.put("history", false);
        doc.put("versions", List.of(VersionView.fields(v)));
        session.emit(doc, () -> {
            new Table("VERSION", "SIZE", "SHA256", "CLOUDS")
                    .row(v.version(), v.size(), v.sha256Hex(), String.join(",", v.clouds()))
                    .print(session.out());
            session.out().println("(Hybris keeps only the current version; older ones are garbage-collected)");
        });
        return ExitCode.OK;
    }
}
