/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.TransactionAbortedException;
import io.hybris.testkit.RegisterHistory;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;

import java.util.List;
import java.util.Optional;

/**
 * Turns what each call returned or threw into the register history the checkers read, and counts it in the
 * {@link Tally}. The classification is the documented one: success; a definite failure (nothing written:
 * {@link TransactionAbortedException}, {@link NotEnoughCloudsException}, a failed precondition, an expired upload,
 * an overtaken streamed PUT); an unknown outcome (any other
 * {@link HybrisException}: the write may take effect at any later time, recorded with
 * {@link RegisterHistory#UNKNOWN_RESPONSE}); and anything outside the hierarchy, or bad-input errors for input the
 * campaign never gets wrong, as violations. A failed read tells nothing and is only counted. Thread-safe.
 */
final class Recorder {
    /** The largest padding of a value (see {@link CampaignValues}). */
    static final int MAX_PADDING = 64 << 10;

    /**
     * A write its call reported as definitely failed (nothing written): kept beside the history, which leaves it out,
     * so a read of its value can be named for what it is.
     */
    record FailedWrite(int process, String kind, String key, String id, long invoke, String exception) {
    }

    private final RegisterHistory history = new RegisterHistory();
    private final List<FailedWrite> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Tally tally;

    Recorder(Tally tally) {
        this.tally = tally;
    }

    /** Records a violation found outside a call's outcome. */
    void tallyViolation(String what) {
        tally.violation(what);
    }

    RegisterHistory history() {
        return history;
    }

    /** The writes reported as definitely failed. */
    List<FailedWrite> failedWrites() {
        return List.copyOf(failed);
    }

    /** A write (or TPUT) of {@code ids} to {@code keys} by {@code process} that returned normally. */
    void writeOk(String kind, int process, List<String> keys, List<String> ids, long invoke, long response) {
        for (int i = 0; i < keys.size(); i++) {
            history.add(new Op(process, ids.get(i) == null ? Kind.DELETE : Kind.WRITE, keys.get(i), ids.get(i),
                    invoke, response));
        }
        tally.op(kind, "ok");
    }

    /** A write that threw {@code e}. */
    void writeFailed(String kind, int process, List<String> keys, List<String> ids, long invoke, Throwable e) {
        if (!documented(kind, e)) {
            return;
        }
        if (e instanceof TransactionAbortedException || e instanceof NotEnoughCloudsException
                || e instanceof io.hybris.WriteConflictException || e instanceof io.hybris.UploadExpiredException) {
            for (int i = 0; i < keys.size(); i++) {
                if (ids.get(i) != null) {
                    failed.add(new FailedWrite(process, kind, keys.get(i), ids.get(i), invoke,
                            e.getClass().getSimpleName()));
                }
            }
            tally.op(kind, "failed");
            return; // definite: nothing was written (an upload in parts that a later-started one overtook, a streamed
            // PUT that a conditional write or deletion overtook)
        }
        for (int i = 0; i < keys.size(); i++) {
            history.add(new Op(process, ids.get(i) == null ? Kind.DELETE : Kind.WRITE, keys.get(i), ids.get(i),
                    invoke, RegisterHistory.UNKNOWN_RESPONSE));
        }
        tally.op(kind, "unknown");
    }

    /** A write whose process died before it answered (a killed client JVM). */
    void writeLost(String kind, int process, List<String> keys, List<String> ids, long invoke) {
        for (int i = 0; i < keys.size(); i++) {
            history.add(new Op(process, ids.get(i) == null ? Kind.DELETE : Kind.WRITE, keys.get(i), ids.get(i),
                    invoke, RegisterHistory.UNKNOWN_RESPONSE));
        }
        tally.op(kind, "unknown");
    }

    /** A read of {@code key} that returned {@code value}; a value that is no campaign write's bytes is a violation. */
    void readOk(int process, String key, Optional<byte[]> value, long invoke, long response) {
        String id = null;
        if (value.isPresent()) {
            try {
                id = CampaignValues.idOf(value.get(), MAX_PADDING);
            } catch (IllegalArgumentException wrong) {
                tally.violation("get of " + key + " returned a wrong value: " + wrong.getMessage());
                tally.op("get", "wrong");
                return;
            }
        }
        history.add(new Op(process, Kind.READ, key, id, invoke, response));
        tally.op("get", "ok");
    }

    /** A read that threw {@code e}. */
    void readFailed(Throwable e) {
        if (documented("get", e)) {
            tally.op("get", "failed");
        }
    }

    private boolean documented(String kind, Throwable e) {
        if (!(e instanceof HybrisException) || e instanceof InvalidRequestException) {
            tally.violation(kind + " threw " + e + " (outside the documented exceptions)");
            tally.op(kind, "undocumented");
            return false;
        }
        return true;
    }
}
