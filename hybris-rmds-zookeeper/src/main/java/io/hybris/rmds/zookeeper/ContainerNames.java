/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.apache.zookeeper.data.Stat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sorted key names of the containers being paged through, kept between pages so a listing of n keys in pages
 * reads the container's children once instead of once per page. ZooKeeper has no paged {@code getChildren}: each
 * call returns every child, so without this, paging through n keys cost O(n&sup2; / page size) names sent.
 *
 * <p>An entry is valid exactly while the container znode's {@code czxid} (which znode: a container deleted and
 * created again is another one) and {@code cversion} (bumped by every child created or deleted, not by a key's
 * update) are the ones it was listed at: then the children are the same set. The store checks that with an
 * {@code exists} after its read-mode sync, so a page is as fresh as one from a new {@code getChildren}. Only
 * listings longer than one page are kept, at most {@value #MAX_CONTAINERS} containers (least recently used
 * dropped first), each for at most a minute after its last use. Thread-safe.
 */
final class ContainerNames {
    static final int MAX_CONTAINERS = 8;
    private static final long IDLE_NANOS = 60_000_000_000L;

    /** A container's sorted key names as of one ({@code czxid}, {@code cversion}). */
    private record Listed(long czxid, int cversion, List<String> sortedNames, long usedAt) {
    }

    private final Map<String, Listed> byPath = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Listed> eldest) {
            return size() > MAX_CONTAINERS;
        }
    };

    /** Whether a listing of {@code containerPath} is kept (then {@link #current} needs the znode's stat). */
    synchronized boolean holds(String containerPath) {
        return byPath.containsKey(containerPath);
    }

    /**
     * The kept names of {@code containerPath} if {@code stat} (the container znode's, read now) shows the same
     * children; else null (and the stale entry is dropped).
     */
    synchronized List<String> current(String containerPath, Stat stat, long nowNanos) {
        Listed listed = byPath.get(containerPath);
        if (listed == null) {
            return null;
        }
        if (listed.czxid() != stat.getCzxid() || listed.cversion() != stat.getCversion()
                || nowNanos - listed.usedAt() > IDLE_NANOS) {
            byPath.remove(containerPath);
            return null;
        }
        byPath.put(containerPath, new Listed(listed.czxid(), listed.cversion(), listed.sortedNames(), nowNanos));
        return listed.sortedNames();
    }

    /** Keeps the names just listed of {@code containerPath}, whose znode had {@code stat} when listed. */
    synchronized void keep(String containerPath, Stat stat, List<String> sortedNames, long nowNanos) {
        byPath.put(containerPath, new Listed(stat.getCzxid(), stat.getCversion(), sortedNames, nowNanos));
    }

    /** Drops whatever is kept of {@code containerPath}. */
    synchronized void forget(String containerPath) {
        byPath.remove(containerPath);
    }
}
