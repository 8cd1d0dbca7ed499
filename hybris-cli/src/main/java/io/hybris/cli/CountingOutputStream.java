/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** An output stream that reports the bytes written through it to a {@link Progress}. */
final class CountingOutputStream extends FilterOutputStream {
    private final Progress progress;

    CountingOutputStream(OutputStream out, Progress progress) {
        super(out);
        this.progress = progress;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        progress.add(1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        progress.add(len);
    }
}
