/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cost.CostSettings;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataStore;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The immutable configuration of a {@link Hybris} client, built with {@link #builder()} or read from a
 * properties file with {@link #fromProperties(Path)}. {@link Builder#build()} validates everything and rejects
 * mistakes with a {@link HybrisConfigurationException} that names the property, the value and the fix.
 *
 * <pre>{@code
 * HybrisConfig config = HybrisConfig.builder()
 *         .metadataStore("zookeeper", Map.of("connect", "zk1:2181,zk2:2181,zk3:2181"))
 *         .cloud("disk1", "directory", Map.of("path", "/data/c1"))
 *         .cloud("disk2", "directory", Map.of("path", "/data/c2"))
 *         .cloud("disk3", "directory", Map.of("path", "/data/c3"))
 *         .build();
 * }</pre>
 *
 * <h2>Properties</h2>
 * Every setting has a property key, named by its builder method; the README's configuration reference lists them
 * all with defaults, the providers' docs their options. An environment variable named after a key (upper case, dots
 * and dashes as underscores: {@code HYBRIS_RMDS_ZOOKEEPER_DIGEST}) overrides it: keep secrets out of the file.
 * Unknown {@code hybris.*} keys are errors; other keys are ignored.
 */
public final class HybrisConfig {
    static final String PREFIX = "hybris.";

    private final int f;
    private final String clientId;
    private final List<CloudSpec> clouds;
    private final String metadataType;
    private final Map<String, String> metadataOptions;
    private final MetadataStore metadataStore;
    private final Duration deadline;
    private final long maxValueSize;
    private final long chunkThreshold;
    private final int chunkSize;
    private final int chunkParallelUploads;
    private final int chunkReadAhead;
    private final String objectPrefix;
    private final Duration timerMin;
    private final Duration timerInitial;
    private final double timerMultiplier;
    private final boolean gcEnabled;
    private final Duration gcGrace;
    private final Duration sweepInterval;
    private final Duration scrubInterval;
    private final Duration probeInterval;
    private final StartupProbe startupProbe;
    private final Clock clock;
    private final HybrisListener listener;
    private final KeyProvider keyProvider;
    private final CacheSettings cache;
    private final ReadSettings reads;
    private final CostSettings costs;
    private final ErasurePolicy erasurePolicy;
    private final int erasureDataChunks;
    private final long erasureThreshold;
    private final String erasureCoder;
    private final Map<String, ErasurePolicy> containerErasurePolicies;
    private final Map<String, Long> containerErasureThresholds;

    private HybrisConfig(Builder b) {
        this.f = b.f;
        this.clientId = b.clientId != null ? b.clientId : ConfigChecks.generatedClientId();
        this.clouds = List.copyOf(b.clouds.values());
        this.metadataType = b.metadataType;
        this.metadataOptions = Map.copyOf(b.metadataOptions);
        this.metadataStore = b.metadataStore;
        this.deadline = b.deadline;
        this.maxValueSize = b.maxValueSize;
        this.chunkThreshold = b.chunkThreshold;
        this.chunkSize = (int) b.chunkSize; // checked to fit
        this.chunkParallelUploads = b.chunkParallelUploads;
        this.chunkReadAhead = b.chunkReadAhead;
        this.objectPrefix = b.objectPrefix;
        this.timerMin = b.timerMin;
        this.timerInitial = b.timerInitial;
        this.timerMultiplier = b.timerMultiplier;
        this.gcEnabled = b.gcEnabled;
        this.gcGrace = b.gcGrace;
        this.sweepInterval = b.sweepInterval;
        this.scrubInterval = b.scrubInterval;
        this.probeInterval = b.probeInterval;
        this.startupProbe = b.startupProbe;
        this.clock = b.clock;
        this.listener = b.listener;
        this.keyProvider = b.keyProvider;
        this.cache = b.cache;
        this.reads = b.reads;
        this.costs = b.costs;
        this.erasurePolicy = b.erasurePolicy;
        this.erasureDataChunks = b.erasureDataChunks;
        this.erasureThreshold = b.erasureThreshold;
        this.erasureCoder = b.erasureCoder;
        this.containerErasurePolicies = Map.copyOf(b.containerErasurePolicies);
        this.containerErasureThresholds = Map.copyOf(b.containerErasureThresholds);
    }

    /** A new builder with defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Reads a properties file, with environment-variable overrides from {@link System#getenv()}. */
    public static HybrisConfig fromProperties(Path file) {
        return fromProperties(file, System.getenv());
    }

    /** Reads a properties file, with overrides from {@code env} (for tests: pass a map). */
    public static HybrisConfig fromProperties(Path file, Map<String, String> env) {
        return fromMap(PropertiesBinder.read(file), env);
    }

    /** Builds from property keys and values (as in a properties file) with overrides from {@code env}. */
    public static HybrisConfig fromMap(Map<String, String> properties, Map<String, String> env) {
        return PropertiesBinder.bind(properties, env).build();
    }

    /** The environment variable that overrides a property key, e.g. {@code HYBRIS_RMDS_ZOOKEEPER_DIGEST}. */
    public static String environmentVariableFor(String propertyKey) {
        return propertyKey.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Faulty clouds tolerated. */
    public int f() {
        return f;
    }

    /** This client's id, unique among live clients; part of every timestamp it writes. */
    public String clientId() {
        return clientId;
    }

    /** The clouds, in configuration order (properties: sorted by id). */
    public List<CloudSpec> clouds() {
        return clouds;
    }

    /** The metadata store type, when created by a provider. */
    public Optional<String> metadataType() {
        return Optional.ofNullable(metadataType);
    }

    /** The metadata store options, when created by a provider. */
    public Map<String, String> metadataOptions() {
        return metadataOptions;
    }

    /** The application-supplied metadata store, if any (not closed by Hybris). */
    public Optional<MetadataStore> metadataStore() {
        return Optional.ofNullable(metadataStore);
    }

    /** The longest any call may take. */
    public Duration deadline() {
        return deadline;
    }

    /** The largest value accepted. */
    public long maxValueSize() {
        return maxValueSize;
    }

    /** Values above this many bytes are stored in chunks ({@code hybris.chunk.threshold}). */
    public long chunkThreshold() {
        return chunkThreshold;
    }

    /** The most value bytes per chunk of a chunked value ({@code hybris.chunk.size}). */
    public int chunkSize() {
        return chunkSize;
    }

    /** Chunks of one put uploading at a time ({@code hybris.chunk.parallel-uploads}). */
    public int chunkParallelUploads() {
        return chunkParallelUploads;
    }

    /** Chunks a stream fetches ahead of its reader ({@code hybris.chunk.read-ahead}). */
    public int chunkReadAhead() {
        return chunkReadAhead;
    }

    /** The object-name prefix Hybris owns on every cloud. */
    public String objectPrefix() {
        return objectPrefix;
    }

    /** The shortest per-cloud timer. */
    public Duration timerMin() {
        return timerMin;
    }

    /** The timer for a cloud with no observations. */
    public Duration timerInitial() {
        return timerInitial;
    }

    /** Timer = multiplier x observed latency. */
    public double timerMultiplier() {
        return timerMultiplier;
    }

    /** Whether superseded versions are deleted in the background. */
    public boolean gcEnabled() {
        return gcEnabled;
    }

    /** Minimum age of an unreferenced object before the sweep deletes it. */
    public Duration gcGrace() {
        return gcGrace;
    }

    /** Period of the automatic orphan sweep; zero means off. */
    public Duration sweepInterval() {
        return sweepInterval;
    }

    /** Period of the background scrub (listing, with repair); zero when off ({@code hybris.scrub.interval}). */
    public Duration scrubInterval() {
        return scrubInterval;
    }

    /** How old a cloud's latency estimate may get before a probe re-measures it; zero means never. */
    public Duration probeInterval() {
        return probeInterval;
    }

    /** Whether the clouds are measured when the client opens ({@code hybris.ranking.probe-on-open}). */
    public StartupProbe startupProbe() {
        return startupProbe;
    }

    /** The client's wall clock (part receipts, cache staleness); the sweep ages objects by each cloud's own. */
    public Clock clock() {
        return clock;
    }

    /** The event listener. */
    public HybrisListener listener() {
        return listener;
    }

    /** The key provider values are encrypted with; empty if values are stored unencrypted. */
    public Optional<KeyProvider> keyProvider() {
        return Optional.ofNullable(keyProvider);
    }

    /** The value cache and consistency settings ({@code hybris.cache.*}); {@link CacheSettings#none()} by default. */
    public CacheSettings cache() {
        return cache;
    }

    /** Hedged reads and the quarantine of clouds failing hash checks ({@code hybris.get.*}). */
    public ReadSettings reads() {
        return reads;
    }

    /** Prices and cost-aware placement ({@code hybris.placement*}, {@code hybris.cloud.<id>.price.*}). */
    public CostSettings costs() {
        return costs;
    }

    /** The default placement policy ({@code hybris.erasure.policy}). */
    public ErasurePolicy erasurePolicy() {
        return erasurePolicy;
    }

    /** Data chunks per erasure-coded value, {@code k} ({@code hybris.erasure.k}); parity chunks are {@code f}. */
    public int erasureDataChunks() {
        return erasureDataChunks;
    }

    /** The smallest stored value the {@code threshold} policy erasure-codes ({@code hybris.erasure.threshold}). */
    public long erasureThreshold() {
        return erasureThreshold;
    }

    /** The erasure coder: {@code auto}, {@code java} or {@code native} ({@code hybris.erasure.coder}). */
    public String erasureCoder() {
        return erasureCoder;
    }

    /** The policy for one container (its override, else {@link #erasurePolicy()}). */
    public ErasurePolicy erasurePolicy(String container) {
        return containerErasurePolicies.getOrDefault(container, erasurePolicy);
    }

    /** The threshold for one container (its override, else {@link #erasureThreshold()}). */
    public long erasureThreshold(String container) {
        return containerErasureThresholds.getOrDefault(container, erasureThreshold);
    }

    /** Whether any container may be erasure-coded (the default policy or an override is not replication). */
    public boolean erasureCodingUsed() {
        return erasurePolicy != ErasurePolicy.REPLICATION
                || containerErasurePolicies.values().stream().anyMatch(p -> p != ErasurePolicy.REPLICATION);
    }

    @Override
    public String toString() {
        return "HybrisConfig[f=" + f + ", clientId=" + clientId + ", clouds=" + clouds + ", rmds="
                + (metadataStore != null ? metadataStore.describe() : metadataType) + ", deadline=" + deadline + "]";
    }

    /** Builds a {@link HybrisConfig}. Not thread-safe; {@link #build()} validates and copies (reusable). */
    public static final class Builder {
        int f = 1;
        String clientId;
        final Map<String, CloudSpec> clouds = new LinkedHashMap<>();
        String metadataType;
        Map<String, String> metadataOptions = Map.of();
        MetadataStore metadataStore;
        Duration deadline = Duration.ofSeconds(30);
        long maxValueSize = 5L << 40;
        long chunkThreshold = 8L << 20;
        long chunkSize = 8 << 20;
        int chunkParallelUploads = 4;
        int chunkReadAhead = 4;
        String objectPrefix = "hybris/";
        Duration timerMin = Duration.ofMillis(250);
        Duration timerInitial = Duration.ofSeconds(2);
        double timerMultiplier = 3.0;
        boolean gcEnabled = true;
        Duration gcGrace = Duration.ofHours(1);
        Duration sweepInterval = Duration.ZERO;
        Duration scrubInterval = Duration.ZERO;
        Duration probeInterval = Duration.ofMinutes(5);
        StartupProbe startupProbe = StartupProbe.AUTO;
        Clock clock = Clock.systemUTC();
        HybrisListener listener = HybrisListener.of();
        KeyProvider keyProvider;
        CacheSettings cache = CacheSettings.none();
        ReadSettings reads = ReadSettings.defaults();
        CostSettings costs = CostSettings.none();
        ErasurePolicy erasurePolicy = ErasurePolicy.REPLICATION;
        int erasureDataChunks = 2;
        long erasureThreshold = 1L << 20;
        String erasureCoder = "auto";
        final Map<String, ErasurePolicy> containerErasurePolicies = new TreeMap<>();
        final Map<String, Long> containerErasureThresholds = new TreeMap<>();

        private Builder() {
        }

        /** The default placement policy ({@code hybris.erasure.policy}). */
        public Builder erasurePolicy(ErasurePolicy policy) {
            this.erasurePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Data chunks per erasure-coded value ({@code hybris.erasure.k}); parity chunks are always {@code f}. */
        public Builder erasureDataChunks(int k) {
            this.erasureDataChunks = k;
            return this;
        }

        /** The smallest stored value the {@code threshold} policy erasure-codes ({@code hybris.erasure.threshold}). */
        public Builder erasureThreshold(long bytes) {
            this.erasureThreshold = bytes;
            return this;
        }

        /** The erasure coder: {@code auto}, {@code java} or {@code native} ({@code hybris.erasure.coder}). */
        public Builder erasureCoder(String coder) {
            this.erasureCoder = Objects.requireNonNull(coder, "coder").trim().toLowerCase(Locale.ROOT);
            return this;
        }

        /** The policy for one container ({@code hybris.container.<name>.erasure.policy}). */
        public Builder containerErasurePolicy(String container, ErasurePolicy policy) {
            containerErasurePolicies.put(Objects.requireNonNull(container, "container"),
                    Objects.requireNonNull(policy, "policy"));
            return this;
        }

        /** The threshold for one container ({@code hybris.container.<name>.erasure.threshold}). */
        public Builder containerErasureThreshold(String container, long bytes) {
            containerErasureThresholds.put(Objects.requireNonNull(container, "container"), bytes);
            return this;
        }

        /** Faulty clouds to tolerate ({@code hybris.f}). */
        public Builder f(int f) {
            this.f = f;
            return this;
        }

        /** This client's unique id ({@code hybris.client-id}); random when not set. */
        public Builder clientId(String clientId) {
            this.clientId = clientId;
            return this;
        }

        /** Adds a cloud created by a provider ({@code hybris.cloud.<id>.type} and options). */
        public Builder cloud(String id, String type, Map<String, String> options) {
            return cloud(CloudSpec.of(id, type, options));
        }

        /** Adds an application-supplied cloud store (Hybris will not close it). */
        public Builder cloud(CloudStore store) {
            return cloud(CloudSpec.of(store));
        }

        /** Adds a cloud. */
        public Builder cloud(CloudSpec spec) {
            if (clouds.putIfAbsent(Objects.requireNonNull(spec, "spec").id(), spec) != null) {
                throw new HybrisConfigurationException("cloud id '" + spec.id()
                        + "' is configured twice; every cloud needs its own id");
            }
            return this;
        }

        /** Uses a metadata store created by a provider ({@code hybris.rmds.type} and options). */
        public Builder metadataStore(String type, Map<String, String> options) {
            this.metadataType = Objects.requireNonNull(type, "type");
            this.metadataOptions = Map.copyOf(options);
            this.metadataStore = null;
            return this;
        }

        /** Uses an application-supplied metadata store (Hybris will not close it). */
        public Builder metadataStore(MetadataStore store) {
            this.metadataStore = Objects.requireNonNull(store, "store");
            this.metadataType = null;
            this.metadataOptions = Map.of();
            return this;
        }

        /** The longest any call may take ({@code hybris.deadline}). */
        public Builder deadline(Duration deadline) {
            this.deadline = Objects.requireNonNull(deadline, "deadline");
            return this;
        }

        /** The largest value accepted ({@code hybris.value.max-size}). */
        public Builder maxValueSize(long bytes) {
            this.maxValueSize = bytes;
            return this;
        }

        /** Values above this many bytes are stored in chunks ({@code hybris.chunk.threshold}). */
        public Builder chunkThreshold(long bytes) {
            this.chunkThreshold = bytes;
            return this;
        }

        /** The most value bytes per chunk of a chunked value ({@code hybris.chunk.size}). */
        public Builder chunkSize(long bytes) {
            this.chunkSize = bytes; // checked when the configuration is built, as given
            return this;
        }

        /** Chunks of one put uploading at a time ({@code hybris.chunk.parallel-uploads}). */
        public Builder chunkParallelUploads(int chunks) {
            this.chunkParallelUploads = chunks;
            return this;
        }

        /** Chunks a stream fetches ahead of its reader ({@code hybris.chunk.read-ahead}). */
        public Builder chunkReadAhead(int chunks) {
            this.chunkReadAhead = chunks;
            return this;
        }

        /** The object-name prefix Hybris owns ({@code hybris.prefix}); must end with {@code /}. */
        public Builder objectPrefix(String prefix) {
            this.objectPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /** Shortest per-cloud timer ({@code hybris.timer.min}). */
        public Builder timerMin(Duration d) {
            this.timerMin = Objects.requireNonNull(d, "timerMin");
            return this;
        }

        /** Timer for an unobserved cloud ({@code hybris.timer.initial}). */
        public Builder timerInitial(Duration d) {
            this.timerInitial = Objects.requireNonNull(d, "timerInitial");
            return this;
        }

        /** Timer = multiplier x observed latency ({@code hybris.timer.multiplier}). */
        public Builder timerMultiplier(double m) {
            this.timerMultiplier = m;
            return this;
        }

        /** Background deletion of superseded versions ({@code hybris.gc.enabled}). */
        public Builder gcEnabled(boolean enabled) {
            this.gcEnabled = enabled;
            return this;
        }

        /**
         * Minimum age before the sweep deletes an unreferenced object ({@code hybris.gc.grace}); uploads that stall
         * for half of it fail. {@code 0} lets a sweep delete a write between its upload and its commit: for tests.
         */
        public Builder gcGrace(Duration grace) {
            this.gcGrace = Objects.requireNonNull(grace, "grace");
            return this;
        }

        /** Re-measure clouds whose latency estimate is this old; 0: off ({@code hybris.ranking.probe-interval}). */
        public Builder probeInterval(Duration interval) {
            this.probeInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** Measure every cloud while opening (true: {@link StartupProbe#WAIT}) or not at all (false: OFF). */
        public Builder probeOnOpen(boolean probeOnOpen) {
            return startupProbe(probeOnOpen ? StartupProbe.WAIT : StartupProbe.OFF);
        }

        /** When to measure the clouds at open ({@code hybris.ranking.probe-on-open}); {@code AUTO} by default. */
        public Builder startupProbe(StartupProbe probe) {
            this.startupProbe = Objects.requireNonNull(probe, "probe");
            return this;
        }

        /** Period of the automatic orphan sweep, zero for off ({@code hybris.gc.sweep-interval}). */
        public Builder sweepInterval(Duration interval) {
            this.sweepInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** Period of a background listing scrub with repair, zero for off ({@code hybris.scrub.interval}). */
        public Builder scrubInterval(Duration interval) {
            this.scrubInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** The client's wall clock ({@link HybrisConfig#clock()}; tests inject a controllable one). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Receives events (metrics, tests). */
        public Builder listener(HybrisListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * AES-256-GCM under a fresh data key per version, kept by {@code keys} (e.g. {@link
         * io.hybris.crypto.MetadataKeyProvider}, {@link io.hybris.crypto.EnvelopeKeyProvider}); null: off.
         */
        public Builder encryption(KeyProvider keys) {
            this.keyProvider = keys;
            return this;
        }

        /** A value cache and the weaker consistency modes it enables ({@code hybris.cache.*}); none by default. */
        public Builder cache(CacheSettings settings) {
            this.cache = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Hedged reads and quarantine ({@code hybris.get.*}); {@link ReadSettings#defaults()} by default. */
        public Builder reads(ReadSettings settings) {
            this.reads = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Prices and cost-aware placement (docs/cost.md); {@link CostSettings#none()} by default. */
        public Builder costs(CostSettings settings) {
            this.costs = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Validates and builds the configuration. */
        public HybrisConfig build() {
            ConfigChecks.validate(this);
            return new HybrisConfig(this);
        }
    }
}
