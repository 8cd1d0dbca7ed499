/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.ForwardingCloudStore;

import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * A cloud whose GETs of values are 1% slow: one in a hundred (drawn from a seeded generator) waits an extra delay
 * before it reaches the delegate. The wait is interruptible, as a well-behaved driver's is: an abandoned request
 * ends with {@link TransientCloudException}. Thread-safe.
 */
final class OnePercentSlow extends ForwardingCloudStore {
    private final long extraNanos;
    private final SplittableRandom random = new SplittableRandom(1);

    OnePercentSlow(CloudStore delegate, Duration extra) {
        super(delegate);
        this.extraNanos = extra.toNanos();
    }

    private boolean slowNow() {
        synchronized (random) {
            return random.nextInt(100) == 0;
        }
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        if (objectKey.startsWith("hybris/box/") && slowNow()) {
            try {
                Thread.sleep(extraNanos / 1_000_000, (int) (extraNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(id(), "interrupted during the injected slowness", e);
            }
        }
        return super.get(objectKey, maxBytes);
    }
}
