/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ByteRange;
import io.hybris.ValueStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code hybris cat CONTAINER KEY [--range R]}: streams a value, or a byte range of it, to standard output. */
@Command(name = "cat", mixinStandardHelpOptions = true,
        description = "Stream a value (or a byte range of it) to standard output. Progress is drawn on standard "
                + "error when it is a terminal and standard output is not.")
final class CatCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = {"-r", "--range"}, paramLabel = "RANGE", converter = RangeConverter.class,
            description = "Bytes to read, both ends inclusive: FIRST-LAST, FIRST- (to the end) or -N (the last N).")
    ByteRange range;

    @Override
    public Integer call() throws IOException {
        if (root.session.json()) {
            throw CliException.usage("cat writes the value to standard output; --json is not supported (use stat)");
        }
        return copyToStdout(root.session, container, key, range == null ? ByteRange.all() : range);
    }

    /** Streams {@code range} of the value to standard output; not found: exit code 1. */
    static int copyToStdout(Session session, String container, String key, ByteRange range) throws IOException {
        Optional<ValueStream> in = range.isAll() ? session.hybris().getStream(container, key)
                : session.hybris().get(container, key, range);
        if (in.isEmpty()) {
            throw CliException.notFound(container, key);
        }
        OutputStream out = session.out();
        try (ValueStream stream = in.get();
             Progress progress = session.transfer("cat " + container + "/" + key, stream.length(), true)) {
            stream.transferTo(new CountingOutputStream(out, progress));
            out.flush();
        }
        return ExitCode.OK;
    }
}
