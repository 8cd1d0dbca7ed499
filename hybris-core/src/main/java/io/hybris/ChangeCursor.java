/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A position in a container's change feed ({@link Hybris#changes}, {@link Hybris#subscribe}): reading from it
 * returns every change committed after the change the cursor was taken at. Save its {@link #toString()} form
 * (short, ASCII, URL-safe) to resume after a restart and {@link #parse} it back; treat that form as opaque.
 *
 * <p>Internally: the commit to start at ({@code commit}, the metadata store's sequence number of a commit in the
 * container's log) and how many of that commit's changes were already delivered ({@code skip}; a transactional
 * put commits several keys at once).
 *
 * @param commit the sequence number of the first commit to read (1 or more)
 * @param skip   how many changes of that commit to skip (0 or more)
 */
public record ChangeCursor(long commit, int skip) {
    /** The start of the feed: every change still in the log (the oldest may have been compacted away). */
    public static final ChangeCursor BEGINNING = new ChangeCursor(1, 0);

    private static final String FORMAT = "c1.";

    public ChangeCursor {
        if (commit < 1 || skip < 0) {
            throw new IllegalArgumentException("not a change cursor: commit " + commit + ", skip " + skip);
        }
    }

    /**
     * The cursor whose {@link #toString()} is {@code text}.
     *
     * @throws InvalidRequestException if {@code text} is not one, naming it
     */
    public static ChangeCursor parse(String text) {
        if (text != null && text.startsWith(FORMAT)) {
            String[] parts = text.substring(FORMAT.length()).split("\\.", -1);
            if (parts.length == 2) {
                try {
                    return new ChangeCursor(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
                } catch (IllegalArgumentException e) {
                    // fall through
                }
            }
        }
        throw new InvalidRequestException("'" + text + "' is not a change cursor: use a string that a"
                + " ChangeCursor's toString() returned (such as " + BEGINNING + "), or ChangeCursor.BEGINNING");
    }

    /** The cursor's saved form, e.g. {@code c1.1042.0}. */
    @Override
    public String toString() {
        return FORMAT + commit + "." + skip;
    }
}
