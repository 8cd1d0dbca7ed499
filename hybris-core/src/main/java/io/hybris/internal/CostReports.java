/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisConfigurationException;
import io.hybris.HybrisException;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostReport;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Builds a client's {@link CostReport} (docs/cost.md): the usage its counters hold, and the bytes each cloud holds
 * under the object prefix, listed in parallel (those listings are counted too). Thread-safe.
 */
final class CostReports {
    private final Map<String, CloudStore> clouds;
    private final CloudUsageCounters usage;
    private final Map<String, CloudPrices> prices;
    private final String prefix;
    private final ExecutorService io;
    private final Duration deadline;
    private final Instant opened;

    CostReports(Map<String, CloudStore> clouds, CloudUsageCounters usage, Map<String, CloudPrices> prices,
                String prefix, ExecutorService io, Duration deadline, Instant opened) {
        this.clouds = clouds;
        this.usage = usage;
        this.prices = prices;
        this.prefix = prefix;
        this.io = io;
        this.deadline = deadline;
        this.opened = opened;
    }

    CostReport report(Duration storagePeriod) {
        if (storagePeriod == null || storagePeriod.isNegative()) {
            throw new io.hybris.InvalidRequestException("storagePeriod must be zero or more, was " + storagePeriod
                    + "; pass e.g. Duration.ofDays(30)");
        }
        List<String> unpriced = clouds.keySet().stream().filter(id -> !prices.containsKey(id)).sorted().toList();
        if (!unpriced.isEmpty()) {
            throw new HybrisConfigurationException("a cost report needs a price sheet for every cloud; none for "
                    + String.join(", ", unpriced) + ": set hybris.cloud.<id>.price.storage-gb-month (and the other"
                    + " prices, docs/cost.md)");
        }
        Map<String, Future<Long>> listings = new LinkedHashMap<>();
        clouds.forEach((id, cloud) -> listings.put(id, io.submit(() ->
                cloud.list(prefix).stream().mapToLong(CloudObject::size).sum())));
        Deadline d = Deadline.after(deadline);
        Map<String, Long> stored = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Future<Long>> e : listings.entrySet()) {
                stored.put(e.getKey(), e.getValue().get(Math.max(0, d.remainingNanos()), TimeUnit.NANOSECONDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("cost report interrupted while listing the clouds", false, e);
        } catch (ExecutionException e) {
            throw new HybrisException("cost report: listing a cloud failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new DeadlineExceededException("cost report: the clouds were not listed within " + deadline);
        } finally {
            listings.values().forEach(f -> f.cancel(true));
        }
        return CostReport.of(prices, usage.snapshot(), stored, storagePeriod, opened);
    }
}
