/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Tracks which clouds hold one uploaded version while a write decides which of them metadata will reference.
 * Uploads that finish after the decision and are not referenced must be deleted by whoever finishes them, so
 * no copy outlives the write unreferenced (bar crashes, which the sweep handles). Thread-safe.
 */
final class Uploads {
    private final Set<String> stored = new LinkedHashSet<>();
    private final boolean sharedName;
    private Set<String> keep;

    /**
     * @param sharedName whether another attempt of the same write may store objects under the same name (the
     *                   manifest of an upload in parts, completed again): a late copy is then not deleted by name
     */
    Uploads(boolean sharedName) {
        this.sharedName = sharedName;
    }

    /** Whether another attempt of the same write may store objects under the same name. */
    boolean sharedName() {
        return sharedName;
    }

    /**
     * Records that {@code cloudId} now stores the version.
     *
     * @return false if the write already decided and does not reference this cloud: the caller must delete
     */
    synchronized boolean stored(String cloudId) {
        stored.add(cloudId);
        return keep == null || keep.contains(cloudId);
    }

    /** Decides which clouds are referenced; returns the clouds already storing the version that are not. */
    synchronized List<String> decide(Set<String> referenced) {
        keep = Set.copyOf(referenced);
        List<String> unreferenced = null; // usually none: every cloud that stored the version is referenced
        for (String cloudId : stored) {
            if (!keep.contains(cloudId)) {
                if (unreferenced == null) {
                    unreferenced = new java.util.ArrayList<>(stored.size());
                }
                unreferenced.add(cloudId);
            }
        }
        return unreferenced == null ? List.of() : List.copyOf(unreferenced);
    }
}
