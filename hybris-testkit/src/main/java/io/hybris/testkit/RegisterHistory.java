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
 *
 * <p>A conditional write or delete ({@link Op#conditional}) carries a {@link Precondition}: the value whose version
 * it required current (values are unique per write, so a value stands for its version), or an absent key; and
 * whether it held (the call succeeded) or not (it failed with a failed precondition).
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

    /**
     * The precondition of a conditional operation and its outcome.
     *
     * @param ifMatch the value that had to be current, or null for "the key has no value" (ifAbsent)
     * @param held    true if the call succeeded (it took effect: the precondition held at its linearization
     *                point), false if it failed with a failed precondition (it changed nothing: the precondition
     *                did not hold there); an operation with an unknown outcome is recorded as held
     */
    public record Precondition(String ifMatch, boolean held) {
        /** Whether the register state {@code state} (null: absent) satisfies the precondition. */
        public boolean matches(String state) {
            return ifMatch == null ? state == null : ifMatch.equals(state);
        }

        @Override
        public String toString() {
            return (ifMatch == null ? "ifAbsent" : "ifMatch " + ifMatch) + (held ? "" : " -> precondition failed");
        }
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
     * @param precondition for a conditional write or delete: its precondition and outcome; else null
     */
    public record Op(int client, Kind kind, String key, String value, long invoke, long response,
                     Precondition precondition) {
        public Op {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(key, "key");
            if (response < invoke) {
                throw new IllegalArgumentException("response before invocation: " + invoke + " > " + response);
            }
            if (precondition != null && (kind == Kind.READ || kind == Kind.DELETE && value != null
                    || response == UNKNOWN_RESPONSE && !precondition.held())) {
                throw new IllegalArgumentException("a precondition belongs to a write or a delete (recorded with value"
                        + " null), and one with an unknown outcome is recorded as held: " + kind + " " + precondition);
            }
            if (kind == Kind.DELETE && value != null && (response == UNKNOWN_RESPONSE
                    || !value.equals(DELETED) && !value.equals(NOTHING_DELETED))) {
                throw new IllegalArgumentException("a delete's value is DELETED or NOTHING_DELETED, and only when it "
                        + "returned: " + value.replace('\u0000', '^') + " [" + invoke + ", " + response + "]");
            }
        }

        /** An unconditional operation. */
        public Op(int client, Kind kind, String key, String value, long invoke, long response) {
            this(client, kind, key, value, invoke, response, null);
        }

        /**
         * A conditional write of {@code value} ({@code kind} WRITE) or delete ({@code value} null), requiring
         * {@code ifMatch} current (null: an absent key); {@code held}: it succeeded, else it failed its precondition.
         */
        public static Op conditional(int client, Kind kind, String key, String value, String ifMatch, boolean held,
                                     long invoke, long response) {
            return new Op(client, kind, key, value, invoke, response, new Precondition(ifMatch, held));
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
                    + (precondition == null ? "" : " " + precondition) + returned + " [" + invoke + ", "
                    + (response == UNKNOWN_RESPONSE ? "?" : response) + "]";
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
