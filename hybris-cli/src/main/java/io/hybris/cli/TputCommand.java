/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@code hybris tput CONTAINER DIR}: stores every regular file under DIR atomically, one key per file. */
@Command(name = "tput", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Store every regular file under DIR in one transaction (all or nothing), each under its "
                + "path relative to DIR (with / separators) as key. At most 1000 files (fewer on some metadata "
                + "stores: 64 on Consul); each file is read into memory.")
final class TputCommand implements Callable<Integer> {
    /** Hybris's largest transaction. */
    static final int MAX_KEYS = 1000;

    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Parameters(index = "1", paramLabel = "DIR")
    Path dir;

    @Option(names = {"-p", "--prefix"}, paramLabel = "PREFIX", description = "Put PREFIX before every key.")
    String prefix = "";

    @Override
    public Integer call() throws IOException {
        if (!Files.isDirectory(dir)) {
            throw CliException.usage("cannot tput " + dir + ": " + (Files.exists(dir) ? "not a directory"
                    : "no such directory"));
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        if (files.isEmpty()) {
            throw CliException.usage("no regular files under " + dir + ": nothing to put");
        }
        if (files.size() > MAX_KEYS) {
            throw CliException.usage(dir + " holds " + files.size() + " files; a transaction takes at most "
                    + MAX_KEYS);
        }
        Map<String, byte[]> values = new TreeMap<>();
        for (Path f : files) {
            String rel = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
            values.put(prefix + rel, Files.readAllBytes(f));
        }
        Session session = root.session;
        Map<String, VersionInfo> written = session.hybris().tput(container, values);
        Map<String, Object> keys = new LinkedHashMap<>();
        new TreeMap<>(written).forEach((k, v) -> keys.put(k, VersionView.fields(v)));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("container", container);
        doc.put("count", written.size());
        doc.put("keys", keys);
        session.emit(doc, () -> {
            Table t = new Table("KEY", "SIZE", "VERSION", "CLOUDS");
            new TreeMap<>(written).forEach((k, v) -> t.row(k, v.size(), v.version(), String.join(",", v.clouds())));
            t.print(session.out());
            session.out().println("tput " + container + ": " + written.size() + " keys in one transaction");
        });
        return ExitCode.OK;
    }
}
