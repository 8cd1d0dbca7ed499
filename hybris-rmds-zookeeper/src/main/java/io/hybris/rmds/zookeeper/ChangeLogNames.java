/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.apache.zookeeper.data.Stat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The names of a {@link ZooKeeperChangeLog}'s znodes and the sequence numbers they stand for.
 *
 * <p>ZooKeeper names a sequential child {@code c-} plus its parent's count of child creations, a 32-bit number
 * formatted {@code %010d}: a log znode can name {@code 2^31} records, {@code c-0000000000} to {@code c-2147483647}.
 * Past that count the server keeps the count where it is, so every later creation is named {@code c-2147483647}
 * again and refused (NODEEXISTS) — except those sent while that last creation is still being applied, which the
 * wrapped count names {@code c--2147483648}, {@code c--2147483647} and so on. A log is therefore written in
 * <em>generations</em>: generation 0 is the container's log znode, generation {@code g > 0} its sibling
 * {@code <log>.g-<10 digits of g>}, and a commit refused by a full generation is written to the next one
 * ({@link ZooKeeperChangeLog}). The record named {@code c-2147483647} is never deleted, so a full generation
 * stays closed to writers who still take it for the current one.
 *
 * <p>A record's sequence number is {@code g * 2^32 + n + 1}, where {@code n} is its name's number read as an unsigned
 * 32-bit value (the wrapped names come after {@code c-2147483647}): generation 0's numbers are those of the logs
 * written before generations existed, and every record of a generation comes before every record of the next.
 */
final class ChangeLogNames {
    /** The name prefix of a record. */
    static final String CHILD = "c-";
    /** What a generation after the first adds to the log's path, before its number. */
    static final String GENERATION = ".g-";
    /** The number of the last record name ZooKeeper gives a generation before it wraps: {@code c-2147483647}. */
    static final long LAST_NAMED = Integer.MAX_VALUE;
    private static final int GENERATION_BITS = 32;

    private ChangeLogNames() {
    }

    /** The generation holding sequence number {@code sequence} (0 for numbers below 1). */
    static int generation(long sequence) {
        return sequence <= 0 ? 0 : (int) ((sequence - 1) >>> GENERATION_BITS);
    }

    /** The sequence number before generation {@code generation}'s first record. */
    static long base(int generation) {
        return (long) generation << GENERATION_BITS;
    }

    /**
     * The path of generation {@code generation} of the log at {@code log}: generation 0 is the log itself, and each
     * later one its sibling {@code <log>.g-<10 digits>} (a name no container can take). Not a child of the log nor of
     * the generation before: a creation under a full generation makes the server name the records created while it
     * is applied by the wrapped count, so a writer that still takes that generation for the current one could commit
     * into it after records of the next one; a full generation whose last name is taken has no creation under it
     * ever again.
     */
    static String generationPath(String log, int generation) {
        return generation == 0 ? log : log + GENERATION + pad(Integer.toString(generation));
    }

    /** The path of the record with sequence number {@code sequence} in the log at {@code log}. */
    static String child(String log, long sequence) {
        return generationPath(log, generation(sequence)) + "/" + CHILD + digits((sequence - 1) & 0xFFFF_FFFFL);
    }

    /** The digits of name number {@code number}: zero-padded, or the wrapped count as the server formats it. */
    private static String digits(long number) {
        return number <= LAST_NAMED ? pad(Long.toString(number)) : String.format(Locale.ENGLISH, "%010d", (int) number);
    }

    /** Whether {@code sequence} is the record named {@code c-2147483647} of its generation (kept for good). */
    static boolean isLastNamed(long sequence) {
        return ((sequence - 1) & 0xFFFF_FFFFL) == LAST_NAMED;
    }

    /**
     * The sequence numbers of the records among {@code children} of generation {@code generation}, ascending; other
     * children (later generations' znodes) are ignored. Parsed in place and sorted as primitives: a compaction lists
     * the whole log (its retention and more, 22,000 names by default) on every tenth of the retention's commits.
     */
    static long[] sequences(List<String> children, int generation) {
        long base = base(generation);
        long[] out = new long[children.size()];
        int n = 0;
        for (String name : children) {
            long number = numberOf(name);
            if (number >= 0) {
                out[n++] = base + number + 1;
            }
        }
        long[] sorted = n == out.length ? out : Arrays.copyOf(out, n);
        Arrays.sort(sorted);
        return sorted;
    }

    /**
     * The number of a record's name read as unsigned 32 bits: {@code c-NNNNNNNNNN}, or a wrapped name (a negative
     * number as the server formats it, {@code c--2147483648} and up, after {@code c-2147483647}); -1 for any other
     * name.
     */
    static long numberOf(String name) {
        int from = CHILD.length();
        if (!name.startsWith(CHILD) || name.length() < from + 10 || name.length() > from + 11) {
            return -1;
        }
        boolean wrapped = name.charAt(from) == '-';
        long v = 0;
        for (int i = from + (wrapped ? 1 : 0); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        if (!wrapped) {
            return name.length() == from + 10 && v <= LAST_NAMED ? v : -1;
        }
        long number = (1L << 32) - v; // the server's %010d of the wrapped (negative) count
        return v >= 1 && v <= LAST_NAMED + 1 && name.equals(CHILD + digits(number)) ? number : -1;
    }

    /**
     * How many records the generation's znode ever had, from its stat: ZooKeeper names a sequential child after the
     * count of its parent's creations (so this is the newest record's number, if it was not deleted and the
     * generation is not {@link #full}), while the {@code cversion} it reports counts creations and deletions,
     * {@code 2 x created - numChildren}, as a 32-bit number that wraps once that passes 2^31 (after about 2^30
     * commits), hence read unsigned.
     */
    static long recordsCreated(Stat stat) {
        return (Integer.toUnsignedLong(stat.getCversion()) + stat.getNumChildren()) / 2;
    }

    /**
     * Whether the generation has used (or is about to use) its last name: its count of creations cannot tell its
     * newest record any more (the creations past the last name are not counted), so it is read by listing.
     */
    static boolean full(Stat stat) {
        return recordsCreated(stat) >= LAST_NAMED;
    }

    /** Whether ascending {@code sequences} hold one at or after {@code from}. */
    static boolean anyFrom(long[] sequences, long from) {
        return sequences.length > 0 && sequences[sequences.length - 1] >= from;
    }

    static byte[] marker(long through) {
        return Long.toString(through).getBytes(StandardCharsets.US_ASCII);
    }

    static long parseMarker(byte[] data) {
        if (data == null || data.length == 0) {
            return 0;
        }
        try {
            return Long.parseLong(new String(data, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String pad(String digits) {
        StringBuilder padded = new StringBuilder(10);
        for (int i = digits.length(); i < 10; i++) {
            padded.append('0');
        }
        return padded.append(digits).toString();
    }
}
