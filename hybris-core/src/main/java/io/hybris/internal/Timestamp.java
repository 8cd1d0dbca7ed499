package io.hybris.internal;

import java.util.Objects;

/**
 * A Hybris timestamp {@code (sn, clientId)} (paper §3.2), ordered by sequence number, then client id.
 *
 * @param sn       the sequence number, one more than the timestamp it supersedes
 * @param clientId the id of the writing client
 */
public record Timestamp(long sn, String clientId) implements Comparable<Timestamp> {
    public Timestamp {
        Objects.requireNonNull(clientId, "clientId");
        if (sn < 0) {
            throw new IllegalArgumentException("sn must be >= 0: " + sn);
        }
    }

    /** The timestamp a client {@code clientId} writes after this one. */
    public Timestamp next(String writer) {
        return new Timestamp(sn + 1, writer);
    }

    @Override
    public int compareTo(Timestamp o) {
        int c = Long.compare(sn, o.sn);
        return c != 0 ? c : clientId.compareTo(o.clientId);
    }

    /** Whether this timestamp is ordered after {@code other}. */
    public boolean isAfter(Timestamp other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return sn + "_" + clientId;
    }
}
