/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.CloudStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The cloud writes of one repairing scrub run: storing rebuilt copies (counted in the run's totals, paced by its
 * rate limiter), checking that a move's target holds no leftover of the version, and checking moved copies once
 * their move is recorded. Used by one run's thread.
 */
final class RepairWrites {
    private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);

    private final Map<String, CloudStore> clouds;
    private final RateLimiter rate;
    private final ScrubTotals totals;
    /** Per cloud, the object sizes listed under the current container (the run's); absent for one that failed. */
    private final Map<String, Map<String, Long>> listings;

    RepairWrites(Map<String, CloudStore> clouds, RateLimiter rate, ScrubTotals totals,
                 Map<String, Map<String, Long>> listings) {
        this.clouds = clouds;
        this.rate = rate;
        this.totals = totals;
        this.listings = listings;
    }

    /**
     * Once a move is recorded, checks that each moved copy is still on its new cloud, and stores it again if not:
     * a writer's upload of the version that landed late on that cloud after the copy was stored, and was judged
     * against metadata that did not list the cloud yet, was deleted by name, taking the moved copy with it
     * (the writer's collector, reading the metadata again after its delete, restores a copy whose move it then
     * sees recorded: between them no deletion outlives the move).
     */
    void keepMoved(String name, Map<Integer, String> moves, ScrubCheck c) {
        for (Map.Entry<Integer, String> m : moves.entrySet()) {
            byte[] bytes = c.moved.get(m.getKey());
            CloudStore cloud = clouds.get(m.getValue());
            if (bytes == null || cloud == null) {
                continue;
            }
            rate.acquire(0);
            try {
                boolean there = cloud.list(name).stream().anyMatch(o -> o.key().equals(name));
                if (!there && put(m.getValue(), name, bytes)) {
                    LOG.info("scrub: the copy of {} moved to {} was deleted before its move was recorded (a late"
                            + " upload of the version, collected); stored again", name, m.getValue());
                }
            } catch (RuntimeException e) {
                LOG.debug("scrub: {} on {} could not be listed after its move: {}", name, m.getValue(),
                        e.toString());
            }
        }
    }

    /**
     * Whether {@code cloud}, which the version's metadata does not list, holds an object of the version's name, or
     * cannot tell (its listing fails): such a leftover (a migration's, a late upload's whose delete failed) is one
     * the orphan sweep deletes once older than the grace period, and a sweep that judged it before this move is
     * recorded may delete it after the move rewrote it, taking the copy the metadata then lists. The move goes
     * to another cloud instead (the bulk listing shows most leftovers; a listing of the exact name, those that
     * appeared since).
     */
    boolean holdsLeftover(String cloud, String name) {
        Map<String, Long> listed = listings.get(cloud);
        if (listed != null && listed.containsKey(name)) {
            return true;
        }
        rate.acquire(0);
        try {
            return clouds.get(cloud).list(name).stream().anyMatch(o -> o.key().equals(name));
        } catch (RuntimeException e) {
            LOG.debug("scrub: {} on {} could not be listed; not moved there: {}", name, cloud, e.toString());
            return true;
        }
    }

    /** Stores a rebuilt or moved copy; false (logged) if the cloud refused it. */
    boolean put(String cloud, String name, byte[] bytes) {
        rate.acquire(bytes.length);
        try {
            clouds.get(cloud).put(name, bytes);
            totals.bytesWritten += bytes.length;
            return true;
        } catch (RuntimeException e) {
            LOG.debug("scrub: rebuilding {} on {} failed: {}", name, cloud, e.toString());
            return false;
        }
    }
}
