package io.hybris;

import io.hybris.internal.Names;
import io.hybris.internal.Providers;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.support.ConfigValues;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The immutable configuration of a {@link Hybris} client, built with {@link #builder()} or read from a
 * properties file with {@link #fromProperties(Path)}. {@link Builder#build()} validates everything and rejects
 * mistakes with a {@link HybrisConfigurationException} that names the property, the value and the fix.
 *
 * <pre>{@code
 * HybrisConfig config = HybrisConfig.builder()
 *         .f(1)
 *         .metadataStore("zookeeper", Map.of("connect", "zk1:2181,zk2:2181,zk3:2181"))
 *         .cloud("disk1", "directory", Map.of("path", "/data/c1"))
 *         .cloud("disk2", "directory", Map.of("path", "/data/c2"))
 *         .cloud("disk3", "directory", Map.of("path", "/data/c3"))
 *         .build();
 * }</pre>
 *
 * <h2>Properties</h2>
 * <table>
 * <caption>Configuration keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code hybris.f}</td><td>1</td><td>faulty clouds tolerated; needs {@code f+1} clouds, {@code 2f+1} to
 *   write through an outage</td></tr>
 * <tr><td>{@code hybris.client-id}</td><td>random</td><td>unique id of this client instance ({@code [a-z0-9-]},
 *   1-32 chars); two live clients must never share one</td></tr>
 * <tr><td>{@code hybris.deadline}</td><td>30s</td><td>longest any call may take</td></tr>
 * <tr><td>{@code hybris.value.max-size}</td><td>128MiB</td><td>largest value accepted by put</td></tr>
 * <tr><td>{@code hybris.prefix}</td><td>{@code hybris/}</td><td>object-name prefix Hybris owns on every cloud</td></tr>
 * <tr><td>{@code hybris.timer.min}</td><td>250ms</td><td>shortest per-cloud timer before trying another cloud</td></tr>
 * <tr><td>{@code hybris.timer.initial}</td><td>2s</td><td>timer for a cloud with no latency observations yet</td></tr>
 * <tr><td>{@code hybris.timer.multiplier}</td><td>3</td><td>timer = multiplier x observed latency</td></tr>
 * <tr><td>{@code hybris.gc.enabled}</td><td>true</td><td>delete superseded versions in the background</td></tr>
 * <tr><td>{@code hybris.gc.grace}</td><td>1h</td><td>the sweep deletes unreferenced objects older than this</td></tr>
 * <tr><td>{@code hybris.gc.sweep-interval}</td><td>0 (off)</td><td>run the orphan sweep periodically</td></tr>
 * <tr><td>{@code hybris.ranking.probe-interval}</td><td>5m</td><td>re-measure clouds whose latency estimates
 * are older than this (a slow or failed cloud gets no traffic, so only a probe sees it recover); 0 turns probing
 * off</td></tr>
 * <tr><td>{@code hybris.ranking.probe-on-open}</td><td>false</td><td>measure every cloud while opening (the paper's
 * start-up ranking; the clouds in parallel, each bounded by its timer), so the first reads and writes do not
 * settle on whichever clouds are configured first</td></tr>
 * <tr><td>{@code hybris.erasure.policy}</td><td>replication</td><td>{@code replication} ({@code f+1} full
 *   copies), {@code erasure} ({@code k} data + {@code f} parity chunks on {@code k+f} clouds) or {@code threshold}
 *   (erasure coding for stored values of at least {@code hybris.erasure.threshold} bytes)</td></tr>
 * <tr><td>{@code hybris.erasure.k}</td><td>2</td><td>data chunks per erasure-coded value; {@code k+f} clouds
 *   needed</td></tr>
 * <tr><td>{@code hybris.erasure.threshold}</td><td>1MiB</td><td>smallest value the {@code threshold} policy
 *   erasure-codes</td></tr>
 * <tr><td>{@code hybris.erasure.coder}</td><td>auto</td><td>{@code auto} (native ISA-L coder if it loads, else
 *   Java), {@code java} or {@code native} (open fails if it cannot load); needs the hybris-erasure module</td></tr>
 * <tr><td>{@code hybris.container.<name>.erasure.policy}, {@code .threshold}</td><td></td><td>the same, for one
 *   container</td></tr>
 * <tr><td>{@code hybris.rmds.type}</td><td>(required)</td><td>metadata store: {@code zookeeper},
 *   {@code embedded-zookeeper}, {@code memory}; options under {@code hybris.rmds.<type>.}</td></tr>
 * <tr><td>{@code hybris.cloud.<id>.type}</td><td>(required)</td><td>cloud provider: {@code directory},
 *   {@code memory}, ...; options under {@code hybris.cloud.<id>.}</td></tr>
 * </table>
 * Every key can be overridden by an environment variable named after it in upper case with dots and dashes
 * as underscores ({@code hybris.rmds.zookeeper.digest} becomes {@code HYBRIS_RMDS_ZOOKEEPER_DIGEST}): keep
 * secrets out of the file. Unknown {@code hybris.*} keys are errors; other keys are ignored.
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
    private final String objectPrefix;
    private final Duration timerMin;
    private final Duration timerInitial;
    private final double timerMultiplier;
    private final boolean gcEnabled;
    private final Duration gcGrace;
    private final Duration sweepInterval;
    private final Duration probeInterval;
    private final boolean probeOnOpen;
    private final Clock clock;
    private final HybrisListener listener;
    private final KeyProvider keyProvider;
    private final CacheSettings cache;
    private final ErasurePolicy erasurePolicy;
    private final int erasureDataChunks;
    private final long erasureThreshold;
    private final String erasureCoder;
    private final Map<String, ErasurePolicy> containerErasurePolicies;
    private final Map<String, Long> containerErasureThresholds;

    /** How values are spread over clouds ({@code hybris.erasure.policy}). */
    public enum ErasurePolicy {
        /** {@code f+1} full copies on {@code f+1} clouds (the paper's default). */
        REPLICATION,
        /** {@code k} data and {@code f} parity chunks, one per cloud on {@code k+f} clouds (paper §3.9). */
        ERASURE,
        /** Erasure coding for stored values of at least the threshold, replication below it. */
        THRESHOLD;

        /** The property value, e.g. {@code threshold}. */
        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses a property value; {@code key} names the property in the error. */
        public static ErasurePolicy parse(String key, String value) {
            for (ErasurePolicy p : values()) {
                if (p.value().equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return p;
                }
            }
            throw new HybrisConfigurationException(key + "=" + value + " is not a policy: use replication, erasure"
                    + " or threshold");
        }
    }

    private HybrisConfig(Builder b) {
        this.f = b.f;
        this.clientId = b.clientId != null ? b.clientId : generateClientId();
        this.clouds = List.copyOf(b.clouds.values());
        this.metadataType = b.metadataType;
        this.metadataOptions = Map.copyOf(b.metadataOptions);
        this.metadataStore = b.metadataStore;
        this.deadline = b.deadline;
        this.maxValueSize = b.maxValueSize;
        this.objectPrefix = b.objectPrefix;
        this.timerMin = b.timerMin;
        this.timerInitial = b.timerInitial;
        this.timerMultiplier = b.timerMultiplier;
        this.gcEnabled = b.gcEnabled;
        this.gcGrace = b.gcGrace;
        this.sweepInterval = b.sweepInterval;
        this.probeInterval = b.probeInterval;
        this.probeOnOpen = b.probeOnOpen;
        this.clock = b.clock;
        this.listener = b.listener;
        this.keyProvider = b.keyProvider;
        this.cache = b.cache;
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
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new HybrisConfigurationException("cannot read configuration file " + file + ": " + e, e);
        }
        Map<String, String> map = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> map.put(k, p.getProperty(k)));
        return fromMap(map, env);
    }

    /** Builds from property keys and values (as in a properties file) with overrides from {@code env}. */
    public static HybrisConfig fromMap(Map<String, String> properties, Map<String, String> env) {
        return PropertiesBinder.bind(properties, env).build();
    }

    /** The environment variable that overrides a property key, e.g. {@code HYBRIS_RMDS_ZOOKEEPER_DIGEST}. */
    public static String environmentVariableFor(String propertyKey) {
        return propertyKey.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static String generateClientId() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            sb.append(alphabet.charAt(random.nextInt(32)));
        }
        return sb.toString();
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

    /** How old a cloud's latency estimate may get before a probe re-measures it; zero means never. */
    public Duration probeInterval() {
        return probeInterval;
    }

    /** Whether every cloud is measured in the background right after the client opens. */
    public boolean probeOnOpen() {
        return probeOnOpen;
    }

    /** The clock used for the sweep's grace period. */
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

    /**
     * Builds a {@link HybrisConfig}. Not thread-safe; {@link #build()} validates and copies, so a builder may
     * be reused.
     */
    public static final class Builder {
        private int f = 1;
        private String clientId;
        private final Map<String, CloudSpec> clouds = new LinkedHashMap<>();
        private String metadataType;
        private Map<String, String> metadataOptions = Map.of();
        private MetadataStore metadataStore;
        private Duration deadline = Duration.ofSeconds(30);
        private long maxValueSize = 128L << 20;
        private String objectPrefix = "hybris/";
        private Duration timerMin = Duration.ofMillis(250);
        private Duration timerInitial = Duration.ofSeconds(2);
        private double timerMultiplier = 3.0;
        private boolean gcEnabled = true;
        private Duration gcGrace = Duration.ofHours(1);
        private Duration sweepInterval = Duration.ZERO;
        private Duration probeInterval = Duration.ofMinutes(5);
        private boolean probeOnOpen;
        private Clock clock = Clock.systemUTC();
        private HybrisListener listener = new HybrisListener() {
        };
        private KeyProvider keyProvider;
        private CacheSettings cache = CacheSettings.none();
        private ErasurePolicy erasurePolicy = ErasurePolicy.REPLICATION;
        private int erasureDataChunks = 2;
        private long erasureThreshold = 1L << 20;
        private String erasureCoder = "auto";
        private final Map<String, ErasurePolicy> containerErasurePolicies = new TreeMap<>();
        private final Map<String, Long> containerErasureThresholds = new TreeMap<>();

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
            Objects.requireNonNull(spec, "spec");
            if (clouds.putIfAbsent(spec.id(), spec) != null) {
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

        /** Minimum age before the sweep deletes an unreferenced object ({@code hybris.gc.grace}). */
        public Builder gcGrace(Duration grace) {
            this.gcGrace = Objects.requireNonNull(grace, "grace");
            return this;
        }

        /**
         * How old a cloud's latency estimate may get before a background probe (a small write, read and delete
         * under {@code <prefix>.probe/}) re-measures it; zero turns probing off ({@code hybris.ranking.probe-interval}).
         */
        public Builder probeInterval(Duration interval) {
            this.probeInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * Measures every cloud while opening, as the paper's client ranks clouds at start-up (the clouds in
         * parallel, each call bounded by its timer); without it the first operations use clouds in configuration
         * order until traffic or the periodic probe measures them ({@code hybris.ranking.probe-on-open}, default
         * false).
         */
        public Builder probeOnOpen(boolean probeOnOpen) {
            this.probeOnOpen = probeOnOpen;
            return this;
        }

        /** Period of the automatic orphan sweep, zero for off ({@code hybris.gc.sweep-interval}). */
        public Builder sweepInterval(Duration interval) {
            this.sweepInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** The clock for the sweep's grace period (tests inject a controllable one). */
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
         * Encrypts every value written with AES-256-GCM under a fresh data key whose custody is decided by
         * {@code keys}: {@link io.hybris.crypto.MetadataKeyProvider} (data key in metadata, the paper's mode) or
         * {@link io.hybris.crypto.EnvelopeKeyProvider} (wrapped by a key-encryption key kept away from the metadata
         * store and the clouds), or your own (a KMS). Null turns encryption off. ({@code hybris.crypto.*})
         */
        public Builder encryption(KeyProvider keys) {
            this.keyProvider = keys;
            return this;
        }

        /**
         * A value cache on private premises and the weaker consistency modes it enables ({@code hybris.cache.*},
         * see {@link CacheSettings}); {@link CacheSettings#none()} (the default) for none.
         */
        public Builder cache(CacheSettings settings) {
            this.cache = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Validates and builds the configuration. */
        public HybrisConfig build() {
            if (f < 0) {
                throw new HybrisConfigurationException("hybris.f=" + f + " must be 0 or more");
            }
            if (clientId != null && !Names.isValidClientId(clientId)) {
                throw new HybrisConfigurationException("hybris.client-id=" + clientId
                        + " is invalid: use 1-32 of a-z, 0-9 and '-', starting with a letter or digit");
            }
            for (CloudSpec c : clouds.values()) {
                if (!Names.isValidCloudId(c.id())) {
                    throw new HybrisConfigurationException("cloud id '" + c.id() + "' is invalid: use 1-16 of a-z,"
                            + " 0-9 and '-', starting with a letter or digit (ids are stored in every metadata entry)");
                }
                if (c.instance().isEmpty()) {
                    CloudStoreProvider p = Providers.cloudProvider(c.type(), "hybris.cloud." + c.id() + ".type");
                    checkOptions("hybris.cloud." + c.id() + ".", c.options().keySet(), p.optionNames());
                }
            }
            int n = clouds.size();
            if (n < f + 1) {
                throw new HybrisConfigurationException("hybris.f=" + f + " needs at least " + (f + 1) + " clouds, "
                        + (2 * f + 1) + " for writes to survive an outage; " + n + " configured"
                        + (n == 0 ? "" : ": " + String.join(", ", clouds.keySet()))
                        + ". Add clouds (hybris.cloud.<id>.type=...) or lower hybris.f");
            }
            if (metadataStore == null && metadataType == null) {
                throw new HybrisConfigurationException("no metadata store configured: set hybris.rmds.type"
                        + " (zookeeper, embedded-zookeeper, memory, ...) or call metadataStore(...)");
            }
            if (metadataType != null) {
                MetadataStoreProvider p = Providers.metadataProvider(metadataType);
                checkOptions("hybris.rmds." + metadataType + ".", metadataOptions.keySet(), p.optionNames());
            }
            positive("hybris.deadline", deadline);
            positive("hybris.timer.min", timerMin);
            positive("hybris.timer.initial", timerInitial);
            if (gcGrace.isNegative()) {
                throw new HybrisConfigurationException("hybris.gc.grace=" + gcGrace + " must not be negative");
            }
            if (probeInterval.isNegative()) {
                throw new HybrisConfigurationException("hybris.ranking.probe-interval=" + probeInterval
                        + " must not be negative (0 turns latency probing off)");
            }
            if (sweepInterval.isNegative()) {
                throw new HybrisConfigurationException("hybris.gc.sweep-interval=" + sweepInterval
                        + " must not be negative (0 turns the periodic sweep off)");
            }
            if (!(timerMultiplier >= 1.0) || Double.isInfinite(timerMultiplier)) {
                throw new HybrisConfigurationException("hybris.timer.multiplier=" + timerMultiplier
                        + " must be a number >= 1");
            }
            if (maxValueSize < 0 || maxValueSize > Integer.MAX_VALUE - 64) {
                throw new HybrisConfigurationException("hybris.value.max-size=" + maxValueSize
                        + " must be between 0 and " + (Integer.MAX_VALUE - 64) + " bytes (values are held in memory)");
            }
            if (!objectPrefix.isEmpty() && (!objectPrefix.endsWith("/")
                    || !objectPrefix.matches("([a-z0-9][a-z0-9._-]*/)+"))) {
                throw new HybrisConfigurationException("hybris.prefix=" + objectPrefix
                        + " must be path segments of a-z, 0-9, '.', '_', '-' each ending with '/', e.g. hybris/");
            }
            checkErasure(n);
            return new HybrisConfig(this);
        }

        private void checkErasure(int cloudCount) {
            if (erasureDataChunks < 1) {
                throw new HybrisConfigurationException("hybris.erasure.k=" + erasureDataChunks
                        + " must be at least 1 (data chunks per erasure-coded value)");
            }
            if ((long) erasureDataChunks + f > 256) {
                throw new HybrisConfigurationException("hybris.erasure.k=" + erasureDataChunks + " + hybris.f=" + f
                        + " = " + ((long) erasureDataChunks + f) + " chunks, more than the 256 Reed-Solomon over"
                        + " GF(2^8) supports; lower hybris.erasure.k");
            }
            if (erasureThreshold < 0) {
                throw new HybrisConfigurationException("hybris.erasure.threshold=" + erasureThreshold
                        + " must not be negative");
            }
            containerErasureThresholds.forEach((container, bytes) -> {
                if (bytes < 0) {
                    throw new HybrisConfigurationException("hybris.container." + container + ".erasure.threshold="
                            + bytes + " must not be negative");
                }
            });
            for (String container : containerErasurePolicies.keySet()) {
                checkContainerName(container);
            }
            for (String container : containerErasureThresholds.keySet()) {
                checkContainerName(container);
            }
            if (erasureCoder.isEmpty()) {
                throw new HybrisConfigurationException("hybris.erasure.coder is empty: use auto, java or native");
            }
            boolean used = erasurePolicy != ErasurePolicy.REPLICATION
                    || containerErasurePolicies.values().stream().anyMatch(p -> p != ErasurePolicy.REPLICATION);
            if (used && erasureDataChunks + f > cloudCount) {
                throw new HybrisConfigurationException("erasure coding with hybris.erasure.k=" + erasureDataChunks
                        + " and hybris.f=" + f + " stores " + (erasureDataChunks + f) + " chunks on as many clouds,"
                        + " but " + cloudCount + " are configured; lower hybris.erasure.k to at most "
                        + Math.max(0, cloudCount - f) + " or add clouds");
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
        }

        private static void checkOptions(String prefix, Set<String> given, Set<String> known) {
            for (String name : new TreeSet<>(given)) {
                if (!known.contains(name)) {
                    throw new HybrisConfigurationException("unknown option " + prefix + name + "; known options: "
                            + (known.isEmpty() ? "none" : String.join(", ", new TreeSet<>(known))));
                }
            }
        }
    }

    /** Binds flat properties (plus environment overrides) to a {@link Builder}. */
    static final class PropertiesBinder {
        private static final Map<String, Function<Builder, Function<String, Builder>>> CORE = new LinkedHashMap<>();

        static {
            CORE.put("hybris.f", b -> v -> b.f(ConfigValues.parseInt("hybris.f", v)));
            CORE.put("hybris.client-id", b -> b::clientId);
            CORE.put("hybris.deadline", b -> v -> b.deadline(ConfigValues.parseDuration("hybris.deadline", v)));
            CORE.put("hybris.value.max-size",
                    b -> v -> b.maxValueSize(ConfigValues.parseSize("hybris.value.max-size", v)));
            CORE.put("hybris.prefix", b -> b::objectPrefix);
            CORE.put("hybris.timer.min", b -> v -> b.timerMin(ConfigValues.parseDuration("hybris.timer.min", v)));
            CORE.put("hybris.timer.initial",
                    b -> v -> b.timerInitial(ConfigValues.parseDuration("hybris.timer.initial", v)));
            CORE.put("hybris.timer.multiplier", b -> v -> {
                try {
                    return b.timerMultiplier(Double.parseDouble(v.trim()));
                } catch (NumberFormatException e) {
                    throw new HybrisConfigurationException("hybris.timer.multiplier=" + v + " is not a number");
                }
            });
            CORE.put("hybris.gc.enabled", b -> v -> b.gcEnabled(ConfigValues.parseBoolean("hybris.gc.enabled", v)));
            CORE.put("hybris.gc.grace", b -> v -> b.gcGrace(ConfigValues.parseDuration("hybris.gc.grace", v)));
            CORE.put("hybris.ranking.probe-on-open",
                    b -> v -> b.probeOnOpen(ConfigValues.parseBoolean("hybris.ranking.probe-on-open", v)));
            CORE.put("hybris.ranking.probe-interval",
                    b -> v -> b.probeInterval(ConfigValues.parseDuration("hybris.ranking.probe-interval", v)));
            CORE.put("hybris.gc.sweep-interval",
                    b -> v -> b.sweepInterval(ConfigValues.parseDuration("hybris.gc.sweep-interval", v)));
            CORE.put("hybris.erasure.policy",
                    b -> v -> b.erasurePolicy(ErasurePolicy.parse("hybris.erasure.policy", v)));
            CORE.put("hybris.erasure.k",
                    b -> v -> b.erasureDataChunks(ConfigValues.parseInt("hybris.erasure.k", v)));
            CORE.put("hybris.erasure.threshold",
                    b -> v -> b.erasureThreshold(ConfigValues.parseSize("hybris.erasure.threshold", v)));
            CORE.put("hybris.erasure.coder", b -> b::erasureCoder);
        }

        static Builder bind(Map<String, String> properties, Map<String, String> env) {
            Map<String, String> props = new TreeMap<>();
            properties.forEach((k, v) -> {
                if (k.startsWith(PREFIX)) {
                    props.put(k.trim(), v);
                }
            });
            Builder b = builder();
            for (String key : CORE.keySet()) {
                override(props, env, key);
            }
            override(props, env, "hybris.rmds.type");
            for (String key : CryptoSettings.KEYS) {
                override(props, env, key);
            }
            // clouds: hybris.cloud.<id>.<option>
            Map<String, Map<String, String>> cloudOptions = new TreeMap<>();
            String rmdsType = Optional.ofNullable(props.get("hybris.rmds.type")).map(String::trim)
                    .filter(t -> !t.isEmpty()).orElse(null);
            Map<String, String> rmdsOptions = new TreeMap<>();
            List<String> unknown = new ArrayList<>();
            for (Map.Entry<String, String> e : props.entrySet()) {
                String key = e.getKey();
                if (CORE.containsKey(key) || key.equals("hybris.rmds.type") || CryptoSettings.KEYS.contains(key)
                        || key.startsWith(CacheSettings.PREFIX)) {
                    continue;
                }
                if (key.startsWith("hybris.cloud.")) {
                    String rest = key.substring("hybris.cloud.".length());
                    int dot = rest.indexOf('.');
                    if (dot <= 0 || dot == rest.length() - 1) {
                        unknown.add(key);
                        continue;
                    }
                    cloudOptions.computeIfAbsent(rest.substring(0, dot), id -> new TreeMap<>())
                            .put(rest.substring(dot + 1), e.getValue());
                } else if (key.startsWith(CONTAINER_PREFIX) && containerErasureKey(key) != null) {
                    String[] parsed = containerErasureKey(key);
                    String value = e.getValue() == null ? "" : e.getValue().trim();
                    if (parsed[1].equals("policy")) {
                        b.containerErasurePolicy(parsed[0], ErasurePolicy.parse(key, value));
                    } else {
                        b.containerErasureThreshold(parsed[0], ConfigValues.parseSize(key, value));
                    }
                } else if (rmdsType != null && key.startsWith("hybris.rmds." + rmdsType + ".")) {
                    rmdsOptions.put(key.substring(("hybris.rmds." + rmdsType + ".").length()), e.getValue());
                } else {
                    unknown.add(key);
                }
            }
            if (!unknown.isEmpty()) {
                Set<String> known = new TreeSet<>(CORE.keySet());
                known.addAll(CryptoSettings.KEYS);
                known.addAll(CacheSettings.KEYS);
                known.add("hybris.cache.<option>");
                known.add("hybris.rmds.type");
                known.add("hybris.rmds.<type>.<option>");
                known.add("hybris.cloud.<id>.<option>");
                known.add("hybris.container.<name>.erasure.policy");
                known.add("hybris.container.<name>.erasure.threshold");
                throw new HybrisConfigurationException("unknown configuration key" + (unknown.size() > 1 ? "s " : " ")
                        + String.join(", ", unknown) + "; known keys: " + String.join(", ", known));
            }
            for (String key : CORE.keySet()) {
                String v = props.get(key);
                if (v != null && !v.isBlank()) {
                    CORE.get(key).apply(b).apply(v.trim());
                }
            }
            b.encryption(CryptoSettings.keyProvider(props));
            b.cache(CacheSettings.fromProperties(props, env));
            if (rmdsType != null) {
                String type = rmdsType;
                MetadataStoreProvider p = Providers.metadataProvider(type);
                for (String option : p.optionNames()) {
                    envOverride(env, "hybris.rmds." + type + "." + option).ifPresent(v -> rmdsOptions.put(option, v));
                }
                b.metadataStore(type, rmdsOptions);
            }
            for (Map.Entry<String, Map<String, String>> c : cloudOptions.entrySet()) {
                String id = c.getKey();
                Map<String, String> options = new TreeMap<>(c.getValue());
                envOverride(env, "hybris.cloud." + id + ".type").ifPresent(v -> options.put("type", v));
                String type = options.remove("type");
                if (type == null || type.isBlank()) {
                    throw new HybrisConfigurationException("hybris.cloud." + id + ".type is missing: every cloud"
                            + " needs a type (directory, memory, s3, azure, gcs, ...)");
                }
                CloudStoreProvider p = Providers.cloudProvider(type.trim(), "hybris.cloud." + id + ".type");
                for (String option : p.optionNames()) {
                    envOverride(env, "hybris.cloud." + id + "." + option).ifPresent(v -> options.put(option, v));
                }
                b.cloud(id, type.trim(), options);
            }
            return b;
        }

        private static final String CONTAINER_PREFIX = "hybris.container.";

        /** {@code hybris.container.<name>.erasure.(policy|threshold)} as {name, policy|threshold}, else null. */
        private static String[] containerErasureKey(String key) {
            for (String option : new String[] {"policy", "threshold"}) {
                String suffix = ".erasure." + option;
                if (key.endsWith(suffix) && key.length() > CONTAINER_PREFIX.length() + suffix.length()) {
                    return new String[] {key.substring(CONTAINER_PREFIX.length(), key.length() - suffix.length()),
                            option};
                }
            }
            return null;
        }

        private static void override(Map<String, String> props, Map<String, String> env, String key) {
            envOverride(env, key).ifPresent(v -> props.put(key, v));
        }

        private static Optional<String> envOverride(Map<String, String> env, String key) {
            return Optional.ofNullable(env.get(environmentVariableFor(key)));
        }
    }
}
