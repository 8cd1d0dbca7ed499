/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.DeleteOptions;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.spi.MetadataKey;

/**
 * The precondition of a conditional write: what it requires of the key's current version. Checked before the
 * write uploads anything ({@link #check}) and again when its conditional update meets a concurrent change
 * ({@link Commits}): the write then retries only if the precondition still holds and its timestamp still orders
 * after the current one, and otherwise fails with {@link PreconditionFailedException}. Immutable.
 *
 * @param ifMatch  the version ({@code VersionInfo.version()}) that must be current, or null
 * @param ifAbsent whether the key must have no value (never written, or deleted)
 */
record Preconditions(String ifMatch, boolean ifAbsent) {
    /**
     * No requirement on the current version, but the write fails instead of being ordered before a newer one: the
     * completion of an upload in parts, whose timestamp was chosen when the upload started.
     */
    static final Preconditions STAY_NEWEST = new Preconditions(null, false);

    /** The precondition of {@code options}, or null for none. */
    static Preconditions of(PutOptions options) {
        if (options == null || !options.isConditional()) {
            return null;
        }
        return new Preconditions(options.ifMatchVersion().orElse(null), options.isIfAbsent());
    }

    /** The precondition of {@code options}, or null for none. */
    static Preconditions of(DeleteOptions options) {
        return options == null || options.ifMatchVersion().isEmpty() ? null
                : new Preconditions(options.ifMatchVersion().get(), false);
    }

    /** Whether {@code current} (null: the key never existed) satisfies this precondition. */
    boolean holds(Metadata current) {
        boolean live = current != null && !current.isTombstone();
        if (ifAbsent) {
            return !live;
        }
        if (ifMatch == null) {
            return true; // STAY_NEWEST: the commit checks the order
        }
        return live && current.timestamp().toString().equals(ifMatch);
    }

    /** Fails unless {@code required} (null: none) holds for {@code current}. */
    static void check(MetadataKey key, Preconditions required, Current current) {
        if (required != null && !required.holds(current.meta())) {
            throw required.failed(key, current.meta(), false);
        }
    }

    /** The exception of a write to {@code key} whose precondition does not hold for {@code now}. */
    PreconditionFailedException failed(MetadataKey key, Metadata now, boolean atCommit) {
        boolean live = now != null && !now.isTombstone();
        String found = live ? "its current version is " + now.timestamp() : "it has no value";
        if (ifMatch == null && !ifAbsent) {
            return new PreconditionFailedException("the upload in parts of " + key + " cannot complete: a newer"
                    + " version (" + (now == null ? "a deletion" : now.timestamp()) + ") was committed after it started;"
                    + (atCommit ? " nothing was committed and its parts are deleted; upload again"
                    : " this call committed nothing (an earlier complete of this upload whose answer was lost may"
                    + " have committed it before that version: check before uploading again)"),
                    key.key(), live ? now.toVersionInfo() : null);
        }
        String wanted = ifAbsent ? "no value" : "version " + ifMatch;
        if (atCommit && holds(now)) {
            // it holds again, but writes committed since the check (for ifAbsent: a write and a deletion) order after
            // this one, which cannot commit behind them
            return new PreconditionFailedException("conditional write of " + key + " needs " + wanted + " and "
                    + found + " again, but other writes committed since it was checked"
                    + (now == null ? "" : " (the latest, " + (live ? "" : "deletion ") + now.timestamp()
                    + ", is ordered after this write)") + "; nothing was committed and its uploads are deleted; write"
                    + " again", key.key(), live ? now.toVersionInfo() : null);
        }
        return new PreconditionFailedException("conditional write of " + key + " needs " + wanted + ", but " + found
                + (atCommit ? " (a concurrent write committed first; nothing was committed and its uploads are"
                + " deleted)" : " (nothing was written)"), key.key(), live ? now.toVersionInfo() : null);
    }

    @Override
    public String toString() {
        return ifAbsent ? "ifAbsent" : ifMatch == null ? "stayNewest" : "ifMatch(" + ifMatch + ")";
    }
}
