/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The clients one test opens, closed together after it, and the configuration they start from: {@code f=1} over
 * the given clouds, no probe at open or later (so placement follows the clouds' order). Open clients from the
 * test's thread.
 */
final class OpenedClients implements AutoCloseable {
    private final List<Hybris> opened = new ArrayList<>();

    /** {@code f=1} on {@code metadata} over {@code clouds}, without probes: what each test adjusts. */
    static HybrisConfig.Builder config(MetadataStore metadata, List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).probeInterval(Duration.ZERO)
                .probeOnOpen(false);
        clouds.forEach(b::cloud);
        return b;
    }

    /** {@code n} in-memory clouds, {@code c0} to {@code c<n-1>}, their objects timestamped by {@code clock}. */
    static List<InMemoryCloudStore> inMemoryClouds(int n, Clock clock) {
        return IntStream.range(0, n).mapToObj(i -> new InMemoryCloudStore("c" + i, clock)).toList();
    }

    /** {@link #inMemoryClouds(int, Clock)} on the system clock. */
    static List<InMemoryCloudStore> inMemoryClouds(int n) {
        return inMemoryClouds(n, Clock.systemUTC());
    }

    /** Opens a client of {@code config}; {@link #close()} closes it. */
    Hybris open(HybrisConfig.Builder config) {
        Hybris h = Hybris.open(config.build());
        opened.add(h);
        return h;
    }

    @Override
    public void close() {
        opened.forEach(Hybris::close);
    }
}
