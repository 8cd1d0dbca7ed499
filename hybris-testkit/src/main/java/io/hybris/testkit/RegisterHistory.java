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
 */
public final class RegisterHistory {
    /** The response time of an operation whose outcome is unknown (it may take effect at any later point). */
    public static final long UNKNOWN_RESPONSE = Long.MAX_VALUE;

    /** The kind of a register operation. */
    public enum Kind { WRITE, DELETE, READ }

    /**
     * One operation.
     *
     * @param client   which client ran it (for messages)
     * @param kind     write, delete or read
     * @param key      the register
     * @param value    for a write: the value written; for a read: the value returned (null = absent)
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
        }

        @Override
        public String toString() {
            return "client" + client + " " + kind + "(" + key + (kind == Kind.DELETE ? "" : ", " + value) + ") ["
                    + invoke + ", " + (response == UNKNOWN_RESPONSE ? "?" : response) + "]";
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
