/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What a client's cloud use costs (docs/cost.md): the requests and egress it counted ({@link CloudUsage}), and the
 * bytes the clouds hold, stored for a period, priced with each cloud's sheet ({@link Billing}). Immutable.
 */
public final class CostReport {
    /**
     * One cloud's line.
     *
     * @param cloudId     the cloud
     * @param usage       the requests and bytes counted
     * @param storedBytes the bytes it holds under the client's object prefix
     * @param volume      what that bills as
     * @param charges     what it costs
     */
    public record CloudCost(String cloudId, CloudUsage usage, long storedBytes, BillableVolume volume,
                            Charges charges) {
    }

    private final Instant countedSince;
    private final Duration storagePeriod;
    private final Map<String, CloudCost> clouds;
    private final Charges total;

    private CostReport(Instant countedSince, Duration storagePeriod, Map<String, CloudCost> clouds) {
        this.countedSince = countedSince;
        this.storagePeriod = storagePeriod;
        this.clouds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(clouds));
        this.total = clouds.values().stream().map(CloudCost::charges).reduce(Charges.NONE, Charges::plus);
    }

    /**
     * Prices {@code usage} (counted since {@code countedSince}) and {@code storedBytes} held for
     * {@code storagePeriod}.
     *
     * @throws IllegalArgumentException if a cloud of {@code usage} has no price sheet
     */
    public static CostReport of(Map<String, CloudPrices> prices, Map<String, CloudUsage> usage,
                                Map<String, Long> storedBytes, Duration storagePeriod, Instant countedSince) {
        Objects.requireNonNull(countedSince, "countedSince");
        double months = storagePeriod.toSeconds() / 3600.0 / CloudPrices.HOURS_PER_MONTH;
        Map<String, BillableVolume> volumes = new LinkedHashMap<>();
        for (String cloud : new TreeSet<>(usage.keySet())) {
            long stored = storedBytes.getOrDefault(cloud, 0L);
            volumes.put(cloud, usage.get(cloud).billable(stored / CloudPrices.GB * months));
        }
        Map<String, Charges> charges = Billing.charge(volumes, prices);
        Map<String, CloudCost> lines = new LinkedHashMap<>();
        volumes.forEach((cloud, v) -> lines.put(cloud, new CloudCost(cloud, usage.get(cloud),
                storedBytes.getOrDefault(cloud, 0L), v, charges.get(cloud))));
        return new CostReport(countedSince, storagePeriod, lines);
    }

    /** When counting started (the client's open). */
    public Instant countedSince() {
        return countedSince;
    }

    /** How long the stored bytes are charged for. */
    public Duration storagePeriod() {
        return storagePeriod;
    }

    /** Each cloud's line, by id. */
    public Map<String, CloudCost> clouds() {
        return clouds;
    }

    /** All clouds together. */
    public Charges total() {
        return total;
    }

    /** A table: one row per cloud and a total. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-12s %10s %10s %10s %12s %12s %12s %12s %12s %12s%n", "cloud",
                "put/list", "get/head", "delete", "egress MB", "stored MB", "requests", "egress", "storage",
                "total"));
        clouds.values().forEach(c -> b.append(String.format(Locale.ROOT,
                "%-12s %10d %10d %10d %12.1f %12.1f %12.6f %12.6f %12.6f %12.6f%n", c.cloudId(),
                c.usage().putListRequests(), c.usage().getHeadRequests(), c.usage().deleteRequests(),
                c.usage().bytesDownloaded() / 1048576.0, c.storedBytes() / 1048576.0,
                c.charges().putList() + c.charges().getHead() + c.charges().delete(), c.charges().egress(),
                c.charges().storage(), c.charges().total())));
        b.append(String.format(Locale.ROOT, "%-12s %10s %10s %10s %12s %12s %12.6f %12.6f %12.6f %12.6f%n", "total",
                "", "", "", "", "", total.putList() + total.getHead() + total.delete(), total.egress(),
                total.storage(), total.total()));
        return b.toString();
    }
}
