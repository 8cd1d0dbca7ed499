/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** An input stream that reports the bytes read through it to a {@link Progress}. */
final class CountingInputStream extends FilterInputStream {
    private final Progress progress;

    CountingInputStream(InputStream in, Progress progress) {
        super(in);
        this.progress = progress;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            progress.add(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            progress.add(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        progress.add(skipped);
        return skipped;
    }
}
