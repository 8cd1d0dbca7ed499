/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import io.hybris.spi.support.ConfigValues;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Prices and cost-aware placement (docs/cost.md): the {@code hybris.placement*} and {@code hybris.cloud.<id>.price.*}
 * properties. Without prices a client still counts its requests ({@code Hybris.cloudUsage()}) but cannot price them;
 * {@link Placement#COST} and {@link Placement#BALANCED} need a price sheet for every cloud. Immutable.
 *
 * <table>
 * <caption>Cost keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code hybris.placement}</td><td>latency</td><td>{@code latency}, {@code cost} or {@code balanced}
 *   ({@link Placement})</td></tr>
 * <tr><td>{@code hybris.placement.latency-objective}</td><td>2x</td><td>clouds considered for cost: those whose
 *   latency estimate is at most this ({@code 300ms}), or at most this multiple of the fastest's plus 10 ms
 *   ({@code 2x}); a cloud not measured yet counts as within</td></tr>
 * <tr><td>{@code hybris.placement.reads-per-write}</td><td>1</td><td>reads expected per version written, to weigh
 *   egress against storage when placing a write</td></tr>
 * <tr><td>{@code hybris.placement.version-lifetime}</td><td>730h</td><td>how long a version is expected to stay
 *   stored, to weigh storage when placing a write</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.storage-gb-month}</td><td></td><td>storage per GB-month, a
 *   {@link TieredPrice}</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.put-list-per-1000}</td><td>0</td><td>PUT and LIST requests, per
 *   1,000</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.get-head-per-1000}</td><td>0</td><td>GET and HEAD requests, per
 *   1,000</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.delete-per-1000}</td><td>0</td><td>DELETE requests, per 1,000</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.egress-gb}</td><td>0</td><td>bytes read out, per GB, a
 *   {@link TieredPrice}</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.price.account}</td><td>the cloud's id</td><td>billing account; clouds of one
 *   account share volume tiers</td></tr>
 * </table>
 */
public final class CostSettings {
    /** The key of the placement policy; its options start with this and a dot. */
    public static final String PLACEMENT_KEY = "hybris.placement";
    private static final String PRICE = ".price.";
    private static final CostSettings NONE = builder().build();

    private final Placement placement;
    private final Duration latencyObjective;
    private final double latencyObjectiveFactor;
    private final double readsPerWrite;
    private final Duration versionLifetime;
    private final Map<String, CloudPrices> prices;

    private CostSettings(Builder b) {
        this.placement = b.placement;
        this.latencyObjective = b.latencyObjective;
        this.latencyObjectiveFactor = b.latencyObjectiveFactor;
        this.readsPerWrite = b.readsPerWrite;
        this.versionLifetime = b.versionLifetime;
        this.prices = Map.copyOf(b.prices);
    }

    /** Latency placement and no prices: the default. */
    public static CostSettings none() {
        return NONE;
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether {@code key} is one of the keys this class reads (a placement key or a cloud's price key). */
    public static boolean isCostKey(String key) {
        return key.equals(PLACEMENT_KEY) || key.startsWith(PLACEMENT_KEY + ".") || priceKey(key) != null;
    }

    /** {@code hybris.cloud.<id>.price.<item>} as {id, item}, else null. */
    private static String[] priceKey(String key) {
        if (!key.startsWith("hybris.cloud.")) {
            return null;
        }
        String rest = key.substring("hybris.cloud.".length());
        int at = rest.indexOf(PRICE);
        if (at <= 0 || rest.substring(0, at).contains(".")) {
            return null;
        }
        return new String[] {rest.substring(0, at), rest.substring(at + PRICE.length())};
    }

    /**
     * Reads the cost keys of {@code props} (other keys are ignored).
     *
     * @throws IllegalArgumentException naming the key whose value is wrong, or an unknown cost key
     */
    public static CostSettings fromProperties(Map<String, String> props) {
        Builder b = builder();
        Map<String, Map<String, String>> sheets = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(props).entrySet()) {
            String key = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue().trim();
            String[] price = priceKey(key);
            if (price != null) {
                sheets.computeIfAbsent(price[0], id -> new LinkedHashMap<>()).put(price[1], value);
                continue;
            }
            switch (key) {
                case PLACEMENT_KEY -> b.placement(ConfigValues.parseChoice(key, value, Placement.values(),
                        p -> p.name().toLowerCase(Locale.ROOT), "a placement", "latency, cost or balanced"));
                case PLACEMENT_KEY + ".latency-objective" -> {
                    if (value.toLowerCase(Locale.ROOT).endsWith("x")) {
                        b.latencyObjectiveFactor(number(key, value.substring(0, value.length() - 1)));
                    } else {
                        b.latencyObjective(ConfigValues.parseDuration(key, value));
                    }
                }
                case PLACEMENT_KEY + ".reads-per-write" -> b.readsPerWrite(number(key, value));
                case PLACEMENT_KEY + ".version-lifetime" -> b.versionLifetime(ConfigValues.parseDuration(key, value));
                default -> {
                    if (isCostKey(key)) {
                        throw new IllegalArgumentException("unknown key " + key + "; placement keys: "
                                + PLACEMENT_KEY + "[.latency-objective|.reads-per-write|.version-lifetime]");
                    }
                }
            }
        }
        sheets.forEach((id, items) -> b.prices(id, sheet(id, items)));
        return b.build();
    }

    private static CloudPrices sheet(String id, Map<String, String> items) {
        String prefix = "hybris.cloud." + id + PRICE;
        if (!items.containsKey("storage-gb-month")) {
            throw new IllegalArgumentException(prefix + "storage-gb-month is missing: a price sheet needs at least"
                    + " the storage price (the others default to 0)");
        }
        TieredPrice storage = null;
        TieredPrice egress = TieredPrice.free();
        double[] requests = new double[3];
        String account = null;
        for (Map.Entry<String, String> e : items.entrySet()) {
            String key = prefix + e.getKey();
            switch (e.getKey()) {
                case "storage-gb-month" -> storage = tiered(key, e.getValue());
                case "egress-gb" -> egress = tiered(key, e.getValue());
                case "put-list-per-1000" -> requests[0] = number(key, e.getValue());
                case "get-head-per-1000" -> requests[1] = number(key, e.getValue());
                case "delete-per-1000" -> requests[2] = number(key, e.getValue());
                case "account" -> account = e.getValue();
                default -> throw new IllegalArgumentException("unknown price key " + key + "; known: storage-gb-month,"
                        + " put-list-per-1000, get-head-per-1000, delete-per-1000, egress-gb, account");
            }
        }
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] < 0) {
                throw new IllegalArgumentException(prefix + new String[] {"put-list", "get-head", "delete"}[i]
                        + "-per-1000 must be >= 0");
            }
        }
        return new CloudPrices(storage, requests[0], requests[1], requests[2], egress, account);
    }

    private static TieredPrice tiered(String key, String value) {
        try {
            return TieredPrice.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    private static double number(String key, String value) {
        try {
            double d = Double.parseDouble(value.trim());
            if (d >= 0 && !Double.isInfinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(key + " must be a number >= 0, not '" + value + "'");
    }

    /** The placement policy. */
    public Placement placement() {
        return placement;
    }

    /** The absolute latency objective, if one is set (else {@link #latencyObjectiveFactor()} applies). */
    public Optional<Duration> latencyObjective() {
        return Optional.ofNullable(latencyObjective);
    }

    /** The objective as a multiple of the fastest candidate's latency (used when no absolute one is set). */
    public double latencyObjectiveFactor() {
        return latencyObjectiveFactor;
    }

    /** Reads expected per version written. */
    public double readsPerWrite() {
        return readsPerWrite;
    }

    /** How long a version is expected to stay stored. */
    public Duration versionLifetime() {
        return versionLifetime;
    }

    /** Each priced cloud's sheet, by cloud id. */
    public Map<String, CloudPrices> prices() {
        return prices;
    }

    /** The sheet of {@code cloudId}, if it has one. */
    public Optional<CloudPrices> prices(String cloudId) {
        return Optional.ofNullable(prices.get(cloudId));
    }

    @Override
    public String toString() {
        return "CostSettings[placement=" + placement.name().toLowerCase(Locale.ROOT) + ", objective="
                + (latencyObjective != null ? ConfigValues.format(latencyObjective)
                : TieredPrice.plain(latencyObjectiveFactor) + "x") + ", priced=" + new TreeMap<>(prices).keySet() + "]";
    }

    /** Builds {@link CostSettings}. Not thread-safe. */
    public static final class Builder {
        private Placement placement = Placement.LATENCY;
        private Duration latencyObjective;
        private double latencyObjectiveFactor = 2.0;
        private double readsPerWrite = 1.0;
        private Duration versionLifetime = Duration.ofHours(730);
        private final Map<String, CloudPrices> prices = new LinkedHashMap<>();

        private Builder() {
        }

        /** The placement policy ({@code hybris.placement}). */
        public Builder placement(Placement placement) {
            this.placement = Objects.requireNonNull(placement, "placement");
            return this;
        }

        /** An absolute latency objective. */
        public Builder latencyObjective(Duration objective) {
            if (objective.isNegative() || objective.isZero()) {
                throw new IllegalArgumentException("hybris.placement.latency-objective must be > 0: " + objective);
            }
            this.latencyObjective = objective;
            return this;
        }

        /** The objective as a multiple ({@code >= 1}) of the fastest candidate's latency; clears an absolute one. */
        public Builder latencyObjectiveFactor(double factor) {
            if (!(factor >= 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("hybris.placement.latency-objective as a multiple must be >= 1x: "
                        + factor);
            }
            this.latencyObjectiveFactor = factor;
            this.latencyObjective = null;
            return this;
        }

        /** Reads expected per version written ({@code >= 0}). */
        public Builder readsPerWrite(double reads) {
            if (!(reads >= 0) || Double.isInfinite(reads)) {
                throw new IllegalArgumentException("hybris.placement.reads-per-write must be >= 0: " + reads);
            }
            this.readsPerWrite = reads;
            return this;
        }

        /** How long a version is expected to stay stored. */
        public Builder versionLifetime(Duration lifetime) {
            if (lifetime.isNegative()) {
                throw new IllegalArgumentException("hybris.placement.version-lifetime must be >= 0: " + lifetime);
            }
            this.versionLifetime = lifetime;
            return this;
        }

        /** The price sheet of cloud {@code cloudId}. */
        public Builder prices(String cloudId, CloudPrices sheet) {
            prices.put(Objects.requireNonNull(cloudId, "cloudId"), Objects.requireNonNull(sheet, "sheet"));
            return this;
        }

        /** The settings. */
        public CostSettings build() {
            return new CostSettings(this);
        }
    }
}
