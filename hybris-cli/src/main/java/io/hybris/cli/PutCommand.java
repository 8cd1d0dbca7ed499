/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code hybris put CONTAINER KEY [FILE|-]}: stores a file or standard input, streamed. */
@Command(name = "put", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Store a value: the contents of FILE, or standard input when FILE is - or absent "
                + "(streamed; values above hybris.chunk.threshold are stored in chunks).")
final class PutCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER", description = "1-63 characters of [a-z0-9-].")
    String container;

    @Parameters(index = "1", paramLabel = "KEY", description = "The key (1-256 UTF-8 bytes).")
    String key;

    @Parameters(index = "2", arity = "0..1", paramLabel = "FILE", description = "File to store; - or absent: "
            + "standard input.")
    String file;

    @Option(names = "--if-match", paramLabel = "VERSION",
            description = "Store only if VERSION (from stat) is still the current version.")
    String ifMatch;

    @Option(names = "--if-absent", description = "Store only if the key has no value.")
    boolean ifAbsent;

    @Option(names = {"-m", "--meta"}, paramLabel = "NAME=VALUE",
            description = "Application metadata kept with the version (repeatable; up to 2 KiB in all).")
    Map<String, String> meta;

    @Override
    public Integer call() throws IOException {
        Session session = root.session;
        PutOptions options = options();
        boolean stdin = file == null || file.equals("-");
        Path path = stdin ? null : Path.of(file);
        long length = -1;
        if (path != null) {
            if (!Files.isRegularFile(path)) {
                throw CliException.usage("cannot put " + file + ": " + (Files.exists(path)
                        ? "not a regular file" : "no such file"));
            }
            length = Files.size(path);
        }
        VersionInfo v;
        try (InputStream source = stdin ? session.in() : Files.newInputStream(path)) {
            session.hybris();
            try (Progress progress = session.transfer("put " + container + "/" + key, length, false)) {
                v = session.hybris().put(container, key, new CountingInputStream(source, progress), length,
                        options);
            }
        }
        session.emit(VersionView.json(container, key, v),
                () -> session.out().println("put " + container + "/" + key + ": " + VersionView.summary(v)));
        return ExitCode.OK;
    }

    private PutOptions options() {
        if (ifMatch != null && ifAbsent) {
            throw CliException.usage("--if-match and --if-absent exclude each other");
        }
        PutOptions o = ifMatch != null ? PutOptions.ifMatch(ifMatch) : ifAbsent ? PutOptions.ifAbsent()
                : PutOptions.none();
        return meta == null || meta.isEmpty() ? o : o.withMetadata(meta);
    }
}
