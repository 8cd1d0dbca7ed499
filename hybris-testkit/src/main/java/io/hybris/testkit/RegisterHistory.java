/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A recorded concurrent history of operations on a set of registers (one per key): writes of unique values,
 * deletes, and reads. Record each operation's invocation and response times with {@link System#nanoTime()};
 * an operation that failed with an unknown outcome is recorded with {@link #UNKNOWN_RESPONSE}. Thread-safe.
 * Check it with {@link LinearizabilityChecker}.
 *
 * <p>A delete that returned records what it returned ({@link Op#delete}): {@link #DELETED} (it deleted the key's
 * value, so the key had one) or {@link #NOTHING_DELETED} (a no-op: the key had none). A delete recorded with value
 * null, or with an unknown outcome, constrains nothing but the state after it.
 */
public final class RegisterHistory {
    /** The response time of an operation whose outcome is unknown (it may take effect at any later point). */
    public static final long UNKNOWN_RESPONSE = Long.MAX_VALUE;

    /** The value of a {@link Kind#DELETE} that returned the deletion's version: the key had a value, now deleted. */
    public static final String DELETED = "\u0000deleted";

    /** The value of a {@link Kind#DELETE} that returned empty: the key had no value, and nothing was written. */
    public static final String NOTHING_DELETED = "\u0000nothing-deleted";

    /** What a delete that returned {@code deleted} (a version: true; empty: false) records as its value. */
    public static String deleteResult(boolean deleted) {
        return deleted ? DELETED : NOTHING_DELETED;
    }

    /** The kind of a register operation. */
    public enum Kind { WRITE, DELETE, READ }

    /**
     * One operation.
     *
     * @param client   which client ran it (for messages)
     * @param kind     write, delete or read
     * @param key      the register
     * @param value    for a write: the value written; for a read: the value returned (null = absent); for a
     *                 delete: what it returned, {@link #DELETED} or {@link #NOTHING_DELETED}, or null if not recorded
     * @param invoke   invocation time (nanoTime)
     * @param response response time (nanoTime), or {@link #UNKNOWN_RESPONSE}
     */
    public record Op(int client, Kind kind, String key, String value, long invoke, long response) {
        public Op {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(key, "key");
            if (response < invoke) {
                throw new IllegalArgumentException("response before invocation: " + invoke + " > " + response);
            }
            if (kind == Kind.DELETE && value != null && (response == UNKNOWN_RESPONSE
                    || !value.equals(DELETED) && !value.equals(NOTHING_DELETED))) {
                throw new IllegalArgumentException("a delete's value is DELETED or NOTHING_DELETED, and only when it "
                        + "returned: " + value.replace('\u0000', '^') + " [" + invoke + ", " + response + "]");
            }
        }

        /**
         * A delete that returned: {@code deleted} if it returned the deletion's version (it deleted a value), false if
         * it returned empty (the key had no value).
         */
        public static Op delete(int client, String key, boolean deleted, long invoke, long response) {
            return new Op(client, Kind.DELETE, key, deleteResult(deleted), invoke, response);
        }

        @Override
        public String toString() {
            String returned = !(kind == Kind.DELETE && value != null) ? ""
                    : value.equals(DELETED) ? " -> deleted" : " -> nothing deleted";
            return "client" + client + " " + kind + "(" + key + (kind == Kind.DELETE ? "" : ", " + value) + ")"
                    + returned + " [" + invoke + ", " + (response == UNKNOWN_RESPONSE ? "?" : response) + "]";
        }
    }

    private final List<Op> ops = new ArrayList<>();

    /** Records one completed (or unknown-outcome) operation. */
    public synchronized void add(Op op) {
        ops.add(op);
    }

    /** A snapshot of the recorded operations. */
    public synchronized List<Op> operations() {
        return List.copyOf(ops);
    }
}
