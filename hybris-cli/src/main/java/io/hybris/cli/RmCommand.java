/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.DeleteOptions;
import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code hybris rm CONTAINER KEY [--if-match V]}: deletes a key. */
@Command(name = "rm", mixinStandardHelpOptions = true,
        description = "Delete a key (a tombstone in metadata; the clouds' copies are garbage-collected). Deleting "
                + "a key without a value does nothing and succeeds.")
final class RmCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--if-match", paramLabel = "VERSION",
            description = "Delete only if VERSION (from stat) is still the current version (exit code 5 if not).")
    String ifMatch;

    @Override
    public Integer call() {
        Session session = root.session;
        DeleteOptions options = ifMatch == null ? DeleteOptions.none() : DeleteOptions.ifMatch(ifMatch);
        Optional<VersionInfo> deletion = session.hybris().delete(container, key, options);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("container", container);
        doc.put("key", key);
        doc.put("deleted", deletion.isPresent());
        doc.put("version", deletion.map(VersionInfo::version));
        session.emit(doc, () -> session.out().println(deletion.isPresent()
                ? "deleted " + container + "/" + key + " (tombstone version " + deletion.get().version() + ")"
                : container + "/" + key + " had no value: nothing deleted"));
        return ExitCode.OK;
    }
}
