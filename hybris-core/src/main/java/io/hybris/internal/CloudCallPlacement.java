/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides which cloud requests run on the caller's thread instead of an I/O thread: those of clouds whose
 * {@link CloudStore#callTimeBound()} is below both the request's fallback timer and the call's remaining deadline.
 * Such a request answers before its timer could launch another cloud, so running it in place changes nothing in
 * the protocol and saves a thread hand-off each way. The garbage collector also asks which clouds are
 * {@linkplain #bounded bounded}, to delete from them in one task. Immutable.
 */
final class CloudCallPlacement {
    private final Map<String, Long> boundNanos = new HashMap<>();

    CloudCallPlacement(Map<String, CloudStore> clouds) {
        clouds.forEach((id, cloud) -> cloud.callTimeBound()
                .ifPresent(bound -> boundNanos.put(id, bound.isNegative() ? 0L : saturatedNanos(bound))));
    }

    /** Whether a request to {@code cloudId} with a fallback timer of {@code timerNanos} runs on the caller. */
    boolean onCallerThread(String cloudId, long timerNanos, Deadline d) {
        Long bound = boundNanos.get(cloudId);
        return bound != null && bound < timerNanos && bound < d.remainingNanos();
    }

    /** Whether {@code cloudId} bounds its call time at all (its calls take microseconds to milliseconds). */
    boolean bounded(String cloudId) {
        return boundNanos.containsKey(cloudId);
    }

    private static long saturatedNanos(Duration bound) {
        try {
            return bound.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
