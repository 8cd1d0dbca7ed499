/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.Providers;
import io.hybris.spi.ValueCache;
import io.hybris.spi.ValueCacheProvider;
import io.hybris.spi.support.ConfigValues;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The immutable configuration of a client's value cache (paper §4.4) and of the weaker consistency modes built
 * on it (§3.10): the {@code hybris.cache.*} properties. Without a cache ({@link #none()}, the default) Hybris
 * works exactly as before and every read is linearizable.
 *
 * <table>
 * <caption>Cache keys (the provider's own options, e.g. {@code hybris.cache.servers}, are the remaining
 * {@code hybris.cache.*} keys)</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code hybris.cache.type}</td><td>none</td><td>cache provider, e.g. {@code memcached}</td></tr>
 * <tr><td>{@code hybris.cache.write-through}</td><td>true</td><td>PUT writes the value to the cache in
 *   parallel with the clouds</td></tr>
 * <tr><td>{@code hybris.cache.fill-on-read}</td><td>true</td><td>a GET that read from the clouds fills the cache
 *   asynchronously</td></tr>
 * <tr><td>{@code hybris.cache.expiry}</td><td>1h</td><td>lifetime of cached versions (0 = until evicted)</td></tr>
 * <tr><td>{@code hybris.cache.consistency}</td><td>linearizable</td><td>default consistency of {@code get}:
 *   {@code linearizable}, {@code read-your-writes}, {@code bounded-time}, {@code bounded-versions}</td></tr>
 * <tr><td>{@code hybris.cache.staleness.time}</td><td>0 (off)</td><td>Δ: this client maintains time-bounded
 *   entries and its bounded-time reads are at most Δ stale</td></tr>
 * <tr><td>{@code hybris.cache.staleness.versions}</td><td>0 (off)</td><td>η: this client counts versions in
 *   metadata and its bounded-versions reads return one of the η newest versions</td></tr>
 * </table>
 */
public final class CacheSettings {
    static final String PREFIX = "hybris.cache.";
    /** The core (provider-independent) cache keys. */
    static final Set<String> KEYS = Set.of("hybris.cache.type", "hybris.cache.write-through",
            "hybris.cache.fill-on-read", "hybris.cache.expiry", "hybris.cache.consistency",
            "hybris.cache.staleness.time", "hybris.cache.staleness.versions");
    private static final CacheSettings NONE = builder().build();

    private final String type;
    private final Map<String, String> options;
    private final ValueCache instance;
    private final boolean writeThrough;
    private final boolean fillOnRead;
    private final Duration expiry;
    private final Consistency consistency;
    private final Duration stalenessTime;
    private final int stalenessVersions;

    private CacheSettings(Builder b) {
        this.type = b.type;
        this.options = Map.copyOf(b.options);
        this.instance = b.instance;
        this.writeThrough = b.writeThrough;
        this.fillOnRead = b.fillOnRead;
        this.expiry = b.expiry;
        this.consistency = b.consistency;
        this.stalenessTime = b.stalenessTime;
        this.stalenessVersions = b.stalenessVersions;
    }

    /** No cache: every read is linearizable and goes to metadata and the clouds. */
    public static CacheSettings none() {
        return NONE;
    }

    /** A new builder (no cache until {@link Builder#type} or {@link Builder#cache} is set). */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether a cache is configured. */
    public boolean enabled() {
        return type != null || instance != null;
    }

    /** The provider type, when the cache is created by a provider. */
    public Optional<String> type() {
        return Optional.ofNullable(type);
    }

    /** The provider's options (names without the {@code hybris.cache.} prefix). */
    public Map<String, String> options() {
        return options;
    }

    /** The application-supplied cache, if any (not closed by Hybris). */
    public Optional<ValueCache> instance() {
        return Optional.ofNullable(instance);
    }

    /** Whether PUT writes the value to the cache in parallel with the clouds. */
    public boolean writeThrough() {
        return writeThrough;
    }

    /** Whether a GET that read from the clouds fills the cache. */
    public boolean fillOnRead() {
        return fillOnRead;
    }

    /** Lifetime of cached versions; zero for no expiry. */
    public Duration expiry() {
        return expiry;
    }

    /** The default consistency of {@code get(container, key)}. */
    public Consistency consistency() {
        return consistency;
    }

    /** Δ for bounded staleness by time; zero when this client does not maintain time-bounded entries. */
    public Duration stalenessTime() {
        return stalenessTime;
    }

    /** η for bounded staleness by versions; zero when this client does not count versions. */
    public int stalenessVersions() {
        return stalenessVersions;
    }

    @Override
    public String toString() {
        return !enabled() ? "CacheSettings[none]" : "CacheSettings[" + (type != null ? type : instance.describe())
                + ", writeThrough=" + writeThrough + ", fillOnRead=" + fillOnRead + ", expiry=" + expiry
                + ", consistency=" + consistency.propertyValue() + ", Δ=" + stalenessTime + ", η="
                + stalenessVersions + "]";
    }

    /** Reads the {@code hybris.cache.*} keys of {@code props}, with overrides from {@code env}. */
    static CacheSettings fromProperties(Map<String, String> props, Map<String, String> env) {
        Map<String, String> all = new TreeMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                all.put(k, v);
            }
        });
        for (String key : KEYS) {
            env(env, key).ifPresent(v -> all.put(key, v));
        }
        String type = blankToNull(all.get("hybris.cache.type"));
        Builder b = builder();
        Map<String, String> options = new TreeMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                options.put(e.getKey().substring(PREFIX.length()), e.getValue());
            }
        }
        if (type == null) {
            if (!options.isEmpty()) {
                throw new HybrisConfigurationException("hybris.cache." + options.keySet().iterator().next()
                        + " is set but hybris.cache.type is not; set hybris.cache.type (e.g. memcached) or remove it");
            }
        } else {
            ValueCacheProvider p = Providers.cacheProvider(type);
            for (String option : p.optionNames()) {
                env(env, PREFIX + option).ifPresent(v -> options.put(option, v));
            }
            b.type(type, options);
        }
        value(all, "hybris.cache.write-through")
                .ifPresent(v -> b.writeThrough(ConfigValues.parseBoolean("hybris.cache.write-through", v)));
        value(all, "hybris.cache.fill-on-read")
                .ifPresent(v -> b.fillOnRead(ConfigValues.parseBoolean("hybris.cache.fill-on-read", v)));
        value(all, "hybris.cache.expiry")
                .ifPresent(v -> b.expiry(ConfigValues.parseDuration("hybris.cache.expiry", v)));
        value(all, "hybris.cache.consistency")
                .ifPresent(v -> b.consistency(Consistency.fromProperty("hybris.cache.consistency", v)));
        value(all, "hybris.cache.staleness.time")
                .ifPresent(v -> b.stalenessTime(ConfigValues.parseDuration("hybris.cache.staleness.time", v)));
        value(all, "hybris.cache.staleness.versions")
                .ifPresent(v -> b.stalenessVersions(ConfigValues.parseInt("hybris.cache.staleness.versions", v)));
        return b.build();
    }

    private static Optional<String> value(Map<String, String> all, String key) {
        return Optional.ofNullable(blankToNull(all.get(key)));
    }

    private static Optional<String> env(Map<String, String> env, String key) {
        return Optional.ofNullable(env.get(HybrisConfig.environmentVariableFor(key)));
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Builds {@link CacheSettings}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private String type;
        private Map<String, String> options = Map.of();
        private ValueCache instance;
        private boolean writeThrough = true;
        private boolean fillOnRead = true;
        private Duration expiry = Duration.ofHours(1);
        private Consistency consistency = Consistency.LINEARIZABLE;
        private Duration stalenessTime = Duration.ZERO;
        private int stalenessVersions;

        private Builder() {
        }

        /** A cache created by the provider of {@code type} ({@code hybris.cache.type}) with its options. */
        public Builder type(String type, Map<String, String> options) {
            this.type = Objects.requireNonNull(type, "type");
            this.options = Map.copyOf(options);
            this.instance = null;
            return this;
        }

        /** An application-supplied cache (Hybris will not close it). */
        public Builder cache(ValueCache cache) {
            this.instance = Objects.requireNonNull(cache, "cache");
            this.type = null;
            this.options = Map.of();
            return this;
        }

        /** Write-through on PUT ({@code hybris.cache.write-through}). */
        public Builder writeThrough(boolean on) {
            this.writeThrough = on;
            return this;
        }

        /** Fill the cache after GETs served by the clouds ({@code hybris.cache.fill-on-read}). */
        public Builder fillOnRead(boolean on) {
            this.fillOnRead = on;
            return this;
        }

        /** Lifetime of cached versions, zero for none ({@code hybris.cache.expiry}). */
        public Builder expiry(Duration expiry) {
            this.expiry = Objects.requireNonNull(expiry, "expiry");
            return this;
        }

        /** Default consistency of {@code get} ({@code hybris.cache.consistency}). */
        public Builder consistency(Consistency consistency) {
            this.consistency = Objects.requireNonNull(consistency, "consistency");
            return this;
        }

        /** Δ, zero for off ({@code hybris.cache.staleness.time}). */
        public Builder stalenessTime(Duration delta) {
            this.stalenessTime = Objects.requireNonNull(delta, "delta");
            return this;
        }

        /** η, zero for off ({@code hybris.cache.staleness.versions}). */
        public Builder stalenessVersions(int eta) {
            this.stalenessVersions = eta;
            return this;
        }

        /** Validates and builds. */
        public CacheSettings build() {
            if (expiry.isNegative()) {
                throw new HybrisConfigurationException("hybris.cache.expiry=" + expiry
                        + " must not be negative (0 = no expiry)");
            }
            if (stalenessTime.isNegative()) {
                throw new HybrisConfigurationException("hybris.cache.staleness.time=" + stalenessTime
                        + " must not be negative (0 = off)");
            }
            if (stalenessVersions < 0) {
                throw new HybrisConfigurationException("hybris.cache.staleness.versions=" + stalenessVersions
                        + " must not be negative (0 = off)");
            }
            boolean enabled = type != null || instance != null;
            if (!enabled && (consistency != Consistency.LINEARIZABLE || !stalenessTime.isZero()
                    || stalenessVersions != 0)) {
                throw new HybrisConfigurationException("hybris.cache.consistency, hybris.cache.staleness.time and"
                        + " hybris.cache.staleness.versions need a cache: set hybris.cache.type (e.g. memcached)");
            }
            if (consistency == Consistency.BOUNDED_STALENESS_TIME && stalenessTime.isZero()) {
                throw new HybrisConfigurationException("hybris.cache.consistency=bounded-time needs"
                        + " hybris.cache.staleness.time (Δ), e.g. 5s");
            }
            if (consistency == Consistency.BOUNDED_STALENESS_VERSIONS && stalenessVersions == 0) {
                throw new HybrisConfigurationException("hybris.cache.consistency=bounded-versions needs"
                        + " hybris.cache.staleness.versions (η), e.g. 3");
            }
            if (type != null) {
                ValueCacheProvider p = Providers.cacheProvider(type);
                for (String name : new TreeSet<>(options.keySet())) {
                    if (!p.optionNames().contains(name)) {
                        throw new HybrisConfigurationException("unknown option hybris.cache." + name + "; known: "
                                + String.join(", ", new TreeSet<>(KEYS)) + ", and for " + type + ": "
                                + String.join(", ", new TreeSet<>(p.optionNames())));
                    }
                }
            }
            return new CacheSettings(this);
        }
    }
}
