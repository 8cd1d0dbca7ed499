/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisListener;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Clouds that keep failing hash checks ({@code hybris.get.quarantine.*}, docs/protocol.md): a correct cloud never
 * returns bytes that do not match the metadata hash (every version has its own object name), so a cloud whose
 * answers failed the check {@code after} times within the window is asked last by every race, whatever its latency
 * estimate, until the window has passed. A failure penalty alone is not enough: a probe or a read of another key
 * succeeds, the penalty is replaced, and the next GET of a corrupted key would pay for the bad cloud again. A
 * quarantined cloud is still asked when the others cannot provide what a race needs, so quarantine never costs
 * availability. Thread-safe.
 */
final class Quarantine {
    private final int after;
    private final long windowNanos;
    private final HybrisListener listener;
    private final LongSupplier nanoClock;
    /** Per cloud: the times of its recent hash failures, oldest first (guarded by the deque). */
    private final Map<String, ArrayDeque<Long>> failures = new ConcurrentHashMap<>();
    /** Per quarantined cloud: the nano time its quarantine ends. */
    private final Map<String, Long> until = new ConcurrentHashMap<>();

    Quarantine(int after, Duration window, HybrisListener listener, LongSupplier nanoClock) {
        this.after = after;
        this.windowNanos = window.toNanos();
        this.listener = listener;
        this.nanoClock = nanoClock;
    }

    /** Records that {@code cloudId} answered with bytes failing the hash check; may start its quarantine. */
    void hashFailed(String cloudId) {
        if (after == 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        ArrayDeque<Long> times = failures.computeIfAbsent(cloudId, id -> new ArrayDeque<>());
        int count;
        synchronized (times) {
            times.addLast(now);
            while (!times.isEmpty() && now - times.peekFirst() > windowNanos) {
                times.removeFirst();
            }
            count = times.size();
            if (count < after) {
                return;
            }
            times.clear(); // the next quarantine needs as many new failures
        }
        until.put(cloudId, now + windowNanos);
        listener.cloudQuarantined(cloudId, count, Duration.ofNanos(windowNanos));
    }

    /** Whether {@code cloudId} is in quarantine now. */
    boolean quarantined(String cloudId) {
        return remainingNanos(cloudId) > 0;
    }

    /** How long {@code cloudId} stays in quarantine; empty when it is not. */
    Optional<Duration> remaining(String cloudId) {
        long left = remainingNanos(cloudId);
        return left > 0 ? Optional.of(Duration.ofNanos(left)) : Optional.empty();
    }

    private long remainingNanos(String cloudId) {
        Long end = until.get(cloudId);
        if (end == null) {
            return 0;
        }
        long left = end - nanoClock.getAsLong();
        if (left <= 0) {
            until.remove(cloudId, end);
        }
        return left;
    }

    /** {@code order} with the quarantined clouds moved to its end, each part keeping its order. */
    List<String> askLast(List<String> order) {
        if (until.isEmpty()) {
            return order;
        }
        List<String> good = new ArrayList<>(order.size());
        List<String> held = new ArrayList<>(1);
        for (String id : order) {
            (quarantined(id) ? held : good).add(id);
        }
        if (held.isEmpty()) {
            return order;
        }
        good.addAll(held);
        return List.copyOf(good);
    }
}
