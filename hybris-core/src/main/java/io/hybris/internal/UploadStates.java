/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one client knows of its uploads in parts that an abort must respect, by the upload's version: the uploads it
 * aborted (their parts and completions are refused), the completions it is running, and those that sent their
 * metadata update (whose outcome a failed completion never learns: the caller was interrupted, the store did not
 * answer). An abort of an upload that may still commit that way must not delete its chunks: the update can land
 * after the abort read the key. One lock orders a completion's start against an abort, so either the completion sees the abort and
 * refuses, or the abort sees the completion and leaves the chunks to the orphan sweep (which deletes them only if
 * the version never commits). The remembered sets are bounded (the newest kept). Thread-safe.
 */
final class UploadStates {
    /** How many aborted uploads, and how many uploads whose completion sent its update, a client remembers. */
    static final int MAX_REMEMBERED = 10_000;

    private final Map<String, Boolean> aborted = bounded();
    private final Map<String, Boolean> mayCommit = bounded();
    private final Map<String, Integer> completing = new HashMap<>();

    private static Map<String, Boolean> bounded() {
        return new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > MAX_REMEMBERED;
            }
        };
    }

    /** Whether the upload of {@code version} was aborted by this client. */
    synchronized boolean aborted(String version) {
        return aborted.containsKey(version);
    }

    /**
     * Starts a completion of the upload of {@code version}; every call that returns true is paired with one
     * {@link #endCompletion}.
     *
     * @return false if the upload was aborted (nothing started)
     */
    synchronized boolean beginCompletion(String version) {
        if (aborted.containsKey(version)) {
            return false;
        }
        completing.merge(version, 1, Integer::sum);
        return true;
    }

    /**
     * Records that a completion of the upload of {@code version} stored its manifest and is about to send its
     * update: whatever it then throws, the version may still commit. (Remembered after a completion that committed
     * too: an abort reads the key and refuses a committed upload first.)
     */
    synchronized void updateSent(String version) {
        mayCommit.put(version, Boolean.TRUE);
    }

    /** Ends a completion begun by {@link #beginCompletion}. */
    synchronized void endCompletion(String version) {
        completing.computeIfPresent(version, (v, n) -> n == 1 ? null : n - 1);
    }

    /**
     * Marks the upload of {@code version} aborted: later parts and completions of it on this client are refused.
     *
     * @return whether its chunks may be deleted now: false while a completion of it runs on this client or once
     *         one sent its update
     */
    synchronized boolean abort(String version) {
        aborted.put(version, Boolean.TRUE);
        return !completing.containsKey(version) && !mayCommit.containsKey(version);
    }
}
