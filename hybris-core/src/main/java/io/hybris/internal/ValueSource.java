/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.ValueLengthMismatchException;
import io.hybris.ValueSourceException;
import io.hybris.ValueTooLargeException;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Arrays;

/**
 * The value of a streaming put, read from the caller's {@link InputStream} a piece at a time, with the checks a
 * put needs: the stream must have exactly the declared length (or any length when it is unknown, {@code -1}), at
 * most the configured limit, and its failures become {@link ValueSourceException}. Bytes read ahead to decide
 * between a whole and a chunked value can be pushed back. Used by one thread.
 */
final class ValueSource {
    /** A declared length meaning "unknown: read to the end of the stream". */
    static final long UNKNOWN_LENGTH = -1;

    private final InputStream in;
    private final String sourceClass;
    private final long declared;
    private final long limit;
    private final String what;
    private final String limitName;
    private byte[] pushedBack;
    private long total;
    private boolean ended;

    /**
     * @param declared the length the caller declared, or {@link #UNKNOWN_LENGTH}
     * @param limit    the largest value accepted ({@code hybris.value.max-size})
     * @param what     the key, for messages
     * @throws ValueTooLargeException if the declared length is above the limit
     */
    ValueSource(InputStream in, long declared, long limit, String what) {
        this(in, declared, limit, "hybris.value.max-size=" + limit, what);
    }

    /**
     * A source whose limit is another than {@code hybris.value.max-size} (a part's): {@code limitName} names it in
     * messages.
     */
    ValueSource(InputStream in, long declared, long limit, String limitName, String what) {
        this.in = in == null ? null : new CountChecked(in);
        this.sourceClass = in == null ? "null" : in.getClass().getName();
        this.declared = declared;
        this.limit = limit;
        this.what = what;
        this.limitName = limitName;
        if (declared > limit) {
            throw tooLarge(declared);
        }
    }

    /** A value already in memory (the {@code byte[]} calls that take the chunked path). */
    static ValueSource of(byte[] value, long limit, String what) {
        return new ValueSource(new java.io.ByteArrayInputStream(value), value.length, limit, what);
    }

    /** The declared length, or {@link #UNKNOWN_LENGTH}. */
    long declared() {
        return declared;
    }

    /** Bytes handed out so far (minus any pushed back). */
    long total() {
        return total - (pushedBack == null ? 0 : pushedBack.length);
    }

    /**
     * Up to {@code n} next bytes: exactly {@code n} unless the value ends first; an empty array at its end.
     *
     * @throws ValueLengthMismatchException if the stream ends before, or goes on after, the declared length
     * @throws ValueTooLargeException       if a stream of unknown length goes past the limit
     * @throws ValueSourceException         if the stream throws
     */
    byte[] read(int n) {
        if (pushedBack != null) {
            byte[] back = pushedBack;
            pushedBack = null;
            if (back.length <= n) {
                if (back.length == n || ended) {
                    return back;
                }
                byte[] more = readFromStream(n - back.length);
                byte[] joined = Arrays.copyOf(back, back.length + more.length);
                System.arraycopy(more, 0, joined, back.length, more.length);
                return joined;
            }
            pushedBack = Arrays.copyOfRange(back, n, back.length);
            return Arrays.copyOf(back, n);
        }
        return ended ? new byte[0] : readFromStream(n);
    }

    /** Makes {@code bytes}, the last ones {@link #read} returned, the next ones it returns. */
    void pushBack(byte[] bytes) {
        if (pushedBack != null) {
            throw new IllegalStateException("one push-back at a time");
        }
        pushedBack = bytes;
    }

    private byte[] readFromStream(int n) {
        int want = declared == UNKNOWN_LENGTH ? n : (int) Math.min(n, declared - total);
        byte[] got;
        try {
            got = readUpTo(want);
            if (got.length > want) { // a read that claims more bytes than asked for would commit a wrong value
                throw new IOException(sourceClass + " returned " + got.length + " bytes where at most "
                        + want + " were asked for, breaking the InputStream contract");
            }
            total += got.length;
            if (got.length < want) {
                ended = true;
                if (declared != UNKNOWN_LENGTH) {
                    throw new ValueLengthMismatchException("the stream for " + what + " ended after " + total
                            + " bytes, but its length was declared as " + declared + "; pass the exact length,"
                            + " or -1 if it is not known", declared, total);
                }
            } else if (declared != UNKNOWN_LENGTH && total == declared) {
                ended = true;
                if (in.read() != -1) {
                    throw new ValueLengthMismatchException("the stream for " + what + " has more than the "
                            + declared + " bytes declared; pass the exact length, or -1 if it is not known",
                            declared, declared + 1);
                }
            }
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("put of " + what + " interrupted while reading its stream; nothing"
                    + " was committed", false, e);
        } catch (IOException e) {
            throw new ValueSourceException("reading the value of " + what + " failed after " + total + " bytes: "
                    + e.getMessage() + "; nothing was committed", e);
        } catch (java.io.UncheckedIOException e) { // a stream built on lambdas, Files.lines or a decoder
            throw new ValueSourceException("reading the value of " + what + " failed after " + total + " bytes: "
                    + e.getCause().getMessage() + "; nothing was committed", e.getCause());
        } catch (io.hybris.HybrisException e) {
            throw e; // ours (the length checks above), or a Hybris stream the caller passed on, which says why
        } catch (RuntimeException e) { // the caller's stream failed in another way: still the source, not Hybris
            throw new ValueSourceException("reading the value of " + what + " failed after " + total + " bytes: "
                    + e + "; nothing was committed", e);
        }
        if (total > limit) {
            throw tooLarge(total);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new CallInterruptedException("put of " + what + " interrupted while reading its stream; nothing"
                    + " was committed", false, null);
        }
        return got;
    }

    /**
     * Up to {@code want} bytes, fewer only at the end of the stream. Once the value is known to be large (its
     * length was declared, or an earlier read already returned bytes) they are read straight into an array of
     * {@code want} bytes: {@link InputStream#readNBytes(int)} would gather them in 8 KiB buffers and copy them,
     * holding a chunk twice. The first read of a stream of unknown length, which may be short, grows as it goes.
     */
    private byte[] readUpTo(int want) throws IOException {
        if (declared == UNKNOWN_LENGTH && total == 0) {
            return in.readNBytes(want);
        }
        byte[] buffer = new byte[want];
        int n = in.readNBytes(buffer, 0, want);
        return n == want ? buffer : Arrays.copyOf(buffer, n);
    }

    /**
     * The caller's stream, refusing a read that reports more bytes than it was asked for: {@code readNBytes} adds
     * such a count up as if the bytes were there, so the value would have holes the stream never wrote (a length
     * checked only at the end misses a lie early in a stream of unknown length).
     */
    private static final class CountChecked extends java.io.FilterInputStream {
        CountChecked(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > len) {
                throw new IOException(in.getClass().getName() + " returned " + n + " bytes where at most " + len
                        + " were asked for, breaking the InputStream contract");
            }
            return n;
        }
    }

    private ValueTooLargeException tooLarge(long size) {
        return new ValueTooLargeException("the value of " + what + " is " + (declared == size ? "" : "at least ")
                + size + " bytes, above " + limitName + "; raise the limit or split the value",
                limit);
    }
}
