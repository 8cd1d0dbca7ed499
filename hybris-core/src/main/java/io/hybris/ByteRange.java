/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A range of bytes of a value, as HTTP and S3 express them: {@link #of(long, long) first-last} (both inclusive),
 * {@link #from(long) open-ended} (from an offset to the end) or a {@link #suffix(long) suffix} (the last
 * {@code n} bytes). A range is resolved against the value's length when it is read: a last offset past the end
 * is cut to the end, a suffix longer than the value is the whole value, and a range that starts at or after the
 * end (or any range of an empty value) fails with {@link InvalidRangeException}. Immutable.
 *
 * <pre>{@code
 * hybris.get("videos", "talk.mp4", ByteRange.of(0, 1023));      // the first KiB
 * hybris.get("videos", "talk.mp4", ByteRange.from(1 << 20));    // from 1 MiB to the end
 * hybris.get("videos", "talk.mp4", ByteRange.suffix(4096));     // the last 4 KiB
 * }</pre>
 */
public final class ByteRange {
    private static final ByteRange ALL = new ByteRange(0, -1, -1);

    private final long first;
    private final long last;
    private final long suffix;

    private ByteRange(long first, long last, long suffix) {
        this.first = first;
        this.last = last;
        this.suffix = suffix;
    }

    /**
     * Bytes {@code first} to {@code last}, both inclusive.
     *
     * @throws InvalidRequestException if {@code first} is negative or {@code last < first}
     */
    public static ByteRange of(long first, long last) {
        if (first < 0 || last < first) {
            throw new InvalidRequestException("byte range " + first + "-" + last + " is invalid: it needs 0 <= first"
                    + " <= last (both inclusive)");
        }
        return new ByteRange(first, last, -1);
    }

    /**
     * Bytes from {@code first} to the end of the value.
     *
     * @throws InvalidRequestException if {@code first} is negative
     */
    public static ByteRange from(long first) {
        if (first < 0) {
            throw new InvalidRequestException("byte range " + first + "- is invalid: the first offset must be >= 0");
        }
        return first == 0 ? ALL : new ByteRange(first, -1, -1);
    }

    /**
     * The last {@code length} bytes of the value (all of it if it is shorter).
     *
     * @throws InvalidRequestException if {@code length} is not positive
     */
    public static ByteRange suffix(long length) {
        if (length <= 0) {
            throw new InvalidRequestException("suffix byte range -" + length + " is invalid: it needs a length > 0");
        }
        return new ByteRange(-1, -1, length);
    }

    /** The whole value (the range {@code 0-}). */
    public static ByteRange all() {
        return ALL;
    }

    /** Whether this range is the whole value. */
    public boolean isAll() {
        return first == 0 && last < 0;
    }

    /**
     * The offset of the first byte of this range in a value of {@code valueLength} bytes.
     *
     * @throws InvalidRangeException if the range selects no byte of such a value
     */
    public long firstIn(long valueLength) {
        check(valueLength);
        return suffix > 0 ? Math.max(0, valueLength - suffix) : first;
    }

    /**
     * The number of bytes this range selects in a value of {@code valueLength} bytes.
     *
     * @throws InvalidRangeException if the range selects no byte of such a value
     */
    public long lengthIn(long valueLength) {
        long start = firstIn(valueLength);
        long end = suffix > 0 || last < 0 ? valueLength - 1 : Math.min(last, valueLength - 1);
        return end - start + 1;
    }

    private void check(long valueLength) {
        if (isAll()) {
            return; // the whole value, even an empty one
        }
        if (valueLength == 0 || (suffix < 0 && first >= valueLength)) {
            String value = valueLength == 0 ? "is empty (0 bytes)"
                    : "has " + valueLength + " bytes (offsets 0-" + (valueLength - 1) + ")";
            throw new InvalidRangeException("byte range " + this + " is outside the value, which " + value,
                    valueLength);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteRange r && r.first == first && r.last == last && r.suffix == suffix;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(first) * 31 * 31 + Long.hashCode(last) * 31 + Long.hashCode(suffix);
    }

    /** The HTTP form: {@code 0-1023}, {@code 1048576-} or {@code -4096}. */
    @Override
    public String toString() {
        return suffix > 0 ? "-" + suffix : first + "-" + (last < 0 ? "" : Long.toString(last));
    }
}
