/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.Objects;

/**
 * A Hybris timestamp {@code (sn, clientId, writeId)} (paper §3.2), ordered by sequence number, then client id,
 * then write id.
 *
 * <p>The paper's timestamp is {@code (sn, clientId)}; but one client is shared by many threads, and two of its
 * calls that read the same current version would compute the same pair, hence the same object name, and one
 * write would overwrite the other's copies. The write id makes a timestamp unique per <em>call</em>: each client
 * draws it from its own counter (see {@link WriteIds}), so the timestamp is the identity of one write — the
 * object name it stores under and the way a writer recognises its own committed update.
 *
 * @param sn       the sequence number, one more than the timestamp it supersedes
 * @param clientId the id of the writing client
 * @param writeId  the writing call's id within its client ({@code >= 0}), or {@link #NO_WRITE_ID} for versions
 *                 written before write ids existed
 */
public record Timestamp(long sn, String clientId, long writeId) implements Comparable<Timestamp> {
    /** The write id of a timestamp that has none. */
    public static final long NO_WRITE_ID = -1;

    public Timestamp {
        Objects.requireNonNull(clientId, "clientId");
        if (sn < 0) {
            throw new IllegalArgumentException("sn must be >= 0: " + sn);
        }
        if (writeId < NO_WRITE_ID) {
            throw new IllegalArgumentException("writeId must be >= 0, or NO_WRITE_ID: " + writeId);
        }
    }

    /** A timestamp without a write id. */
    public Timestamp(long sn, String clientId) {
        this(sn, clientId, NO_WRITE_ID);
    }

    /** The timestamp the call {@code writeId} of client {@code writer} writes after this one. */
    public Timestamp next(String writer, long writeId) {
        return new Timestamp(sn + 1, writer, writeId);
    }

    /** Whether this timestamp carries a write id. */
    public boolean hasWriteId() {
        return writeId != NO_WRITE_ID;
    }

    @Override
    public int compareTo(Timestamp o) {
        int c = Long.compare(sn, o.sn);
        if (c != 0) {
            return c;
        }
        c = clientId.compareTo(o.clientId);
        return c != 0 ? c : Long.compare(writeId, o.writeId);
    }

    /** Whether this timestamp is ordered after {@code other}. */
    public boolean isAfter(Timestamp other) {
        return compareTo(other) > 0;
    }

    /** {@code sn_clientId}, then {@code .writeId} in base 36 if there is one; the version part of object names. */
    @Override
    public String toString() {
        return sn + "_" + clientId + (hasWriteId() ? "." + Long.toString(writeId, 36) : "");
    }
}
