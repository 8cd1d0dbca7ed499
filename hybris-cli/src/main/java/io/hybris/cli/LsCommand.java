/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.DescribedKey;
import io.hybris.DescribedKeyPage;
import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code hybris ls CONTAINER [--prefix P] [--limit N] [--cursor C] [--all] [--long]}: one page of live keys, with
 * {@code --long} each with its size, version and clouds (from the same metadata listing).
 */
@Command(name = "ls", sortOptions = false, mixinStandardHelpOptions = true,
        description = "List live keys of a container in order, one page at a time (from metadata only). Keys go "
                + "to standard output one per line; the cursor of the next page, if any, to standard error.")
final class LsCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Option(names = {"-p", "--prefix"}, paramLabel = "PREFIX", description = "Only keys starting with PREFIX.")
    String prefix;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", defaultValue = "1000",
            description = "Keys per page, 1 to 10000 (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = {"-c", "--cursor"}, paramLabel = "CURSOR", description = "Start after this page cursor.")
    String cursor;

    @Option(names = {"-a", "--all"}, description = "Follow the cursors: every key (ignores --limit's paging).")
    boolean all;

    @Option(names = {"-l", "--long"}, description = "Each key with its size, version and clouds, from the same "
            + "metadata listing (no read per key).")
    boolean longFormat;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 10_000) {
            throw CliException.usage("--limit must be between 1 and 10000, not " + limit);
        }
        Session session = root.session;
        String p = prefix == null ? "" : prefix;
        List<DescribedKey> keys = new ArrayList<>();
        DescribedKeyPage page = session.hybris().listDescribed(container, p, cursor, limit);
        keys.addAll(page.keys());
        while (all && page.nextCursor().isPresent()) {
            page = session.hybris().listDescribed(container, p, page.nextCursor().get(), limit);
            keys.addAll(page.keys());
        }
        DescribedKeyPage last = page;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("container", container);
        doc.put("prefix", p);
        doc.put("keys", keys.stream().map(DescribedKey::key).toList());
        if (longFormat) {
            doc.put("versions", keys.stream().map(k -> VersionView.json(container, k.key(), k.version())).toList());
        }
        doc.put("nextCursor", last.nextCursor());
        session.emit(doc, () -> {
            keys.forEach(k -> session.out().println(longFormat ? longLine(k) : k.key()));
            last.nextCursor().ifPresent(c -> session.err().println("more keys: " + nextPageCommand(c)));
        });
        return ExitCode.OK;
    }

    /**
     * The command that lists the next page, ready to paste into a POSIX shell: every argument that is not plainly
     * safe single-quoted (a cursor or prefix is a key, which may hold spaces, quotes or '$'), the page size and the
     * configuration kept.
     */
    private String nextPageCommand(String cursor) {
        List<String> args = new ArrayList<>(List.of("hybris", "ls"));
        if (root.config != null) {
            args.addAll(List.of("--config", root.config.toString()));
        }
        if (root.dataDir != null) {
            args.addAll(List.of("--data-dir", root.dataDir.toString()));
        }
        args.add(container);
        if (prefix != null && !prefix.isEmpty()) {
            args.addAll(List.of("--prefix", prefix));
        }
        if (longFormat) {
            args.add("--long");
        }
        args.addAll(List.of("-n", Integer.toString(limit), "--cursor", cursor));
        return String.join(" ", args.stream().map(LsCommand::shellQuoted).toList());
    }

    /** {@code arg} as a POSIX shell reads it back: as it is if plainly safe, else in single quotes. */
    static String shellQuoted(String arg) {
        return !arg.isEmpty() && arg.matches("[A-Za-z0-9_./:=@%+,-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    /** {@code <size> <version> <clouds> <key>}, the size right-aligned, as {@code ls -l} lines up. */
    private static String longLine(DescribedKey k) {
        VersionInfo v = k.version();
        return String.format(Locale.ROOT, "%12d  %s  %s  %s", v.size(), v.version(), String.join(",", v.clouds()),
                k.key());
    }
}
