/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.Names;
import io.hybris.internal.Providers;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.MetadataStoreProvider;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The validation of a {@link HybrisConfig.Builder} before it builds: every error names the key and the fix. */
final class ConfigChecks {
    private static final long MAX_VALUE_SIZE = 1L << 50;
    /** The longest deadline or timer: one year (call times are counted in nanoseconds, which overflow at 292 years). */
    private static final Duration MAX_CALL_DURATION = Duration.ofDays(365);
    /** The longest sweep grace period or probe interval: 100 years (both are compared in nanoseconds). */
    private static final Duration MAX_PERIOD = Duration.ofDays(36_500);
    private static final int MIN_CHUNK = 64 << 10;
    private static final int MAX_CHUNK = 512 << 20;
    /** A random client id: 8 characters of base32. */
    static String generatedClientId() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        java.security.SecureRandom random = new java.security.SecureRandom();
        StringBuilder sb = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            sb.append(alphabet.charAt(random.nextInt(32)));
        }
        return sb.toString();
    }

    private ConfigChecks() {
    }

    /** Throws {@link HybrisConfigurationException} naming the first invalid setting of {@code b}. */
    static void validate(HybrisConfig.Builder b) {
        if (b.f < 0) {
            throw new HybrisConfigurationException("hybris.f=" + b.f + " must be 0 or more");
        }
        if (b.clientId != null && !Names.isValidClientId(b.clientId)) {
            throw new HybrisConfigurationException("hybris.client-id=" + b.clientId
                    + " is invalid: use 1-32 of a-z, 0-9 and '-', starting with a letter or digit");
        }
        for (CloudSpec c : b.clouds.values()) {
            if (!Names.isValidCloudId(c.id())) {
                throw new HybrisConfigurationException("cloud id '" + c.id() + "' is invalid: use 1-16 of a-z,"
                        + " 0-9 and '-', starting with a letter or digit (ids are stored in every metadata entry)");
            }
            if (c.instance().isEmpty()) {
                CloudStoreProvider p = Providers.cloudProvider(c.type(), "hybris.cloud." + c.id() + ".type");
                checkOptions("hybris.cloud." + c.id() + ".", c.options().keySet(), p.optionNames());
            }
        }
        int n = b.clouds.size();
        if (n < b.f + 1) {
            throw new HybrisConfigurationException("hybris.f=" + b.f + " needs at least " + (b.f + 1) + " clouds, "
                    + (2 * b.f + 1) + " for writes to survive an outage; " + n + " configured"
                    + (n == 0 ? "" : ": " + String.join(", ", b.clouds.keySet()))
                    + ". Add clouds (hybris.cloud.<id>.type=...) or lower hybris.f");
        }
        if (b.metadataStore == null && b.metadataType == null) {
            throw new HybrisConfigurationException("no metadata store configured: set hybris.rmds.type"
                    + " (zookeeper, embedded-zookeeper, memory, ...) or call metadataStore(...)");
        }
        if (b.metadataType != null) {
            MetadataStoreProvider p = Providers.metadataProvider(b.metadataType);
            checkOptions("hybris.rmds." + b.metadataType + ".", b.metadataOptions.keySet(), p.optionNames());
        }
        positive("hybris.deadline", b.deadline);
        positive("hybris.timer.min", b.timerMin);
        positive("hybris.timer.initial", b.timerInitial);
        if (b.gcGrace.isNegative() || b.gcGrace.compareTo(MAX_PERIOD) > 0) {
            throw new HybrisConfigurationException("hybris.gc.grace=" + b.gcGrace + " must be between 0 and "
                    + MAX_PERIOD.toDays() + "d (100 years: upload times are counted in nanoseconds)");
        }
        if (b.probeInterval.isNegative() || b.probeInterval.compareTo(MAX_PERIOD) > 0) {
            throw new HybrisConfigurationException("hybris.ranking.probe-interval=" + b.probeInterval
                    + " must be between 0 (which turns latency probing off) and " + MAX_PERIOD.toDays() + "d");
        }
        if (b.scrubInterval.isNegative() || belowOneMilli(b.scrubInterval)) {
            throw new HybrisConfigurationException("hybris.scrub.interval=" + b.scrubInterval
                    + " must be 0 (which turns the periodic scrub off) or at least 1ms");
        }
        if (b.sweepInterval.isNegative() || belowOneMilli(b.sweepInterval)) {
            throw new HybrisConfigurationException("hybris.gc.sweep-interval=" + b.sweepInterval
                    + " must be 0 (which turns the periodic sweep off) or at least 1ms");
        }
        if (!(b.timerMultiplier >= 1.0) || Double.isInfinite(b.timerMultiplier)) {
            throw new HybrisConfigurationException("hybris.timer.multiplier=" + b.timerMultiplier
                    + " must be a number >= 1");
        }
        if (b.maxValueSize < 0 || b.maxValueSize > MAX_VALUE_SIZE) {
            throw new HybrisConfigurationException("hybris.value.max-size=" + b.maxValueSize
                    + " must be between 0 and " + MAX_VALUE_SIZE + " bytes (1 PiB, written 1024TiB)");
        }
        if (b.chunkSize < MIN_CHUNK || b.chunkSize > MAX_CHUNK) {
            throw new HybrisConfigurationException("hybris.chunk.size=" + b.chunkSize + " must be between "
                    + MIN_CHUNK + " (64KiB) and " + MAX_CHUNK + " (512MiB) bytes");
        }
        if (b.chunkThreshold < 0 || b.chunkThreshold > MAX_CHUNK) {
            throw new HybrisConfigurationException("hybris.chunk.threshold=" + b.chunkThreshold + " must be between"
                    + " 0 and " + MAX_CHUNK + " (512MiB) bytes: a value up to the threshold is held whole in memory");
        }
        if (b.chunkParallelUploads < 1 || b.chunkParallelUploads > 64) {
            throw new HybrisConfigurationException("hybris.chunk.parallel-uploads=" + b.chunkParallelUploads
                    + " must be between 1 and 64");
        }
        if (b.chunkReadAhead < 1 || b.chunkReadAhead > 64) {
            throw new HybrisConfigurationException("hybris.chunk.read-ahead=" + b.chunkReadAhead
                    + " must be between 1 and 64");
        }
        if (!b.objectPrefix.isEmpty() && (!b.objectPrefix.endsWith("/")
                || !b.objectPrefix.matches("([a-z0-9][a-z0-9._-]*/)+"))) {
            throw new HybrisConfigurationException("hybris.prefix=" + b.objectPrefix
                    + " must be path segments of a-z, 0-9, '.', '_', '-' each ending with '/', e.g. hybris/");
        }
        checkErasure(b, n);
        checkCosts(b);
    }

    private static void checkCosts(HybrisConfig.Builder b) {
        for (String priced : b.costs.prices().keySet()) {
            if (!b.clouds.containsKey(priced)) {
                throw new HybrisConfigurationException("prices are set for cloud '" + priced + "', which is not"
                        + " configured (clouds: " + String.join(", ", b.clouds.keySet()) + ")");
            }
        }
        checkSharedAccounts(b.costs.prices());
        if (b.costs.placement() != io.hybris.cost.Placement.LATENCY) {
            List<String> unpriced = b.clouds.keySet().stream().filter(id -> !b.costs.prices().containsKey(id)).toList();
            if (!unpriced.isEmpty()) {
                throw new HybrisConfigurationException("hybris.placement=" + b.costs.placement().name()
                        .toLowerCase(java.util.Locale.ROOT) + " needs a price sheet for every cloud; none for "
                        + String.join(", ", unpriced) + ": set hybris.cloud.<id>.price.storage-gb-month (and the"
                        + " other prices, docs/cost.md) or use hybris.placement=latency");
            }
        }
    }

    /**
     * Clouds billed to one account share its volume tiers ({@link io.hybris.cost.Billing} adds their volumes up before
     * the tiers apply), so they must have the same storage and egress tiers: refused here, naming the keys, rather
     * than by every cost report later.
     */
    private static void checkSharedAccounts(java.util.Map<String, io.hybris.cost.CloudPrices> prices) {
        java.util.Map<String, String> firstOfAccount = new java.util.TreeMap<>();
        for (String cloud : new java.util.TreeSet<>(prices.keySet())) {
            io.hybris.cost.CloudPrices p = prices.get(cloud);
            if (p.account() == null) {
                continue;
            }
            String first = firstOfAccount.putIfAbsent(p.account(), cloud);
            if (first == null) {
                continue;
            }
            io.hybris.cost.CloudPrices q = prices.get(first);
            String item = !q.storagePerGbMonth().equals(p.storagePerGbMonth()) ? "storage-gb-month"
                    : !q.egressPerGb().equals(p.egressPerGb()) ? "egress-gb" : null;
            if (item != null) {
                boolean storage = item.equals("storage-gb-month");
                throw new HybrisConfigurationException("clouds '" + first + "' and '" + cloud + "' are billed to"
                        + " account '" + p.account() + "' (hybris.cloud.<id>.price.account), whose volume tiers they"
                        + " share, but their tiers differ: hybris.cloud." + first + ".price." + item + "="
                        + (storage ? q.storagePerGbMonth() : q.egressPerGb()) + ", hybris.cloud." + cloud + ".price."
                        + item + "=" + (storage ? p.storagePerGbMonth() : p.egressPerGb()) + "; one account has one"
                        + " price sheet for storage and egress");
            }
        }
    }

    private static void checkErasure(HybrisConfig.Builder b, int cloudCount) {
        if (b.erasureDataChunks < 1) {
            throw new HybrisConfigurationException("hybris.erasure.k=" + b.erasureDataChunks
                    + " must be at least 1 (data chunks per erasure-coded value)");
        }
        if ((long) b.erasureDataChunks + b.f > 256) {
            throw new HybrisConfigurationException("hybris.erasure.k=" + b.erasureDataChunks + " + hybris.f=" + b.f
                    + " = " + ((long) b.erasureDataChunks + b.f) + " chunks, more than the 256 Reed-Solomon over"
                    + " GF(2^8) supports; lower hybris.erasure.k");
        }
        if (b.erasureThreshold < 0) {
            throw new HybrisConfigurationException("hybris.erasure.threshold=" + b.erasureThreshold
                    + " must not be negative");
        }
        b.containerErasureThresholds.forEach((container, bytes) -> {
            if (bytes < 0) {
                throw new HybrisConfigurationException("hybris.container." + container + ".erasure.threshold="
                        + bytes + " must not be negative");
            }
        });
        for (String container : b.containerErasurePolicies.keySet()) {
            checkContainerName(container);
        }
        for (String container : b.containerErasureThresholds.keySet()) {
            checkContainerName(container);
        }
        if (b.erasureCoder.isEmpty()) {
            throw new HybrisConfigurationException("hybris.erasure.coder is empty: use auto, java or native");
        }
        boolean used = b.erasurePolicy != ErasurePolicy.REPLICATION
                || b.containerErasurePolicies.values().stream().anyMatch(p -> p != ErasurePolicy.REPLICATION);
        if (used && b.erasureDataChunks + b.f > cloudCount) {
            throw new HybrisConfigurationException("erasure coding with hybris.erasure.k=" + b.erasureDataChunks
                    + " and hybris.f=" + b.f + " stores " + (b.erasureDataChunks + b.f) + " chunks on as many clouds,"
                    + " but " + cloudCount + " are configured; lower hybris.erasure.k to at most "
                    + Math.max(0, cloudCount - b.f) + " or add clouds");
        }
    }

    private static void checkContainerName(String container) {
        try {
            Names.checkContainer(container);
        } catch (RuntimeException e) {
            throw new HybrisConfigurationException("hybris.container." + container + ".erasure.*: "
                    + e.getMessage());
        }
    }

    private static void positive(String key, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new HybrisConfigurationException(key + "=" + d + " must be positive");
        }
        if (d.compareTo(MAX_CALL_DURATION) > 0) { // calls count their time in nanoseconds, which would overflow
            throw new HybrisConfigurationException(key + "=" + d + " is too long: the most is "
                    + MAX_CALL_DURATION.toDays() + "d");
        }
    }

    private static void checkOptions(String prefix, Set<String> given, Set<String> known) {
        for (String name : new TreeSet<>(given)) {
            if (!known.contains(name)) {
                throw new HybrisConfigurationException("unknown option " + prefix + name + "; known options: "
                        + (known.isEmpty() ? "none" : String.join(", ", new TreeSet<>(known))));
            }
        }
    }

    /** Whether {@code d} is above 0 but below the millisecond the periodic tasks are scheduled in. */
    private static boolean belowOneMilli(Duration d) {
        return !d.isZero() && !d.isNegative() && d.toMillis() == 0;
    }
}
