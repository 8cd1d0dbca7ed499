/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chunks a completed upload in parts left out (parts not named, replaced attempts) that a cloud failed to list
 * or delete when the upload completed. The orphan sweep keeps every chunk of a current version, so they would stay
 * for as long as the value is current: the {@link GarbageCollector} remembers them here, in memory, and each sweep
 * tries again. At most {@link #MAX} are remembered (the oldest are dropped, with a warning naming them); a client
 * that closes forgets them. Thread-safe.
 */
final class LeftoverChunks {
    /** How many clean-ups are remembered at most. */
    static final int MAX = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(LeftoverChunks.class);

    /** The chunks of version {@code objectKey} on cloud {@code cloudId} that {@code keep} does not name. */
    record Cleanup(String objectKey, Set<String> keep, String cloudId) {
    }

    private final Map<String, Cleanup> pending = new LinkedHashMap<>();

    synchronized void remember(String objectKey, Set<String> keep, String cloudId) {
        pending.put(objectKey + "\n" + cloudId, new Cleanup(objectKey, keep, cloudId));
        if (pending.size() > MAX) {
            Cleanup dropped = pending.remove(pending.keySet().iterator().next());
            LOG.warn("too many failed clean-ups of completed uploads' leftover chunks; no longer retrying those of {}"
                    + " on cloud {} (objects {}#c..., other than the value's own chunks)", dropped.objectKey(),
                    dropped.cloudId(), dropped.objectKey());
        }
    }

    synchronized List<Cleanup> pending() {
        return List.copyOf(pending.values());
    }

    synchronized void forget(Cleanup c) {
        pending.remove(c.objectKey() + "\n" + c.cloudId(), c);
    }
}
