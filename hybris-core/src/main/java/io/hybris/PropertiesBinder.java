/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cost.CostSettings;
import io.hybris.internal.Providers;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.support.ConfigValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

import io.hybris.HybrisConfig.Builder;

/** Binds flat properties (plus environment overrides) to a {@link HybrisConfig.Builder}. */
final class PropertiesBinder {
    /** The keys and values of a properties file. */
    static Map<String, String> read(java.nio.file.Path file) {
        java.util.Properties p = new java.util.Properties();
        try (java.io.Reader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (java.io.IOException e) {
            throw new HybrisConfigurationException("cannot read configuration file " + file + ": " + e, e);
        } catch (IllegalArgumentException e) { // a malformed unicode escape: a Windows path written with backslashes
            throw new HybrisConfigurationException("configuration file " + file + " is not a valid properties file: "
                    + e.getMessage() + " (a backslash starts an escape: write a Windows path with '/' or '\\\\')",
                    e);
        }
        Map<String, String> map = new java.util.TreeMap<>();
        p.stringPropertyNames().forEach(k -> map.put(k, p.getProperty(k)));
        return map;
    }

    private static final Map<String, Function<Builder, Function<String, Builder>>> CORE = new LinkedHashMap<>();

    /** The fixed keys a properties file may set: the core ones, encryption's and the cache's common ones. */
    static Set<String> fixedKeys() {
        Set<String> keys = new TreeSet<>(CORE.keySet());
        keys.addAll(CryptoSettings.KEYS);
        keys.addAll(CacheSettings.KEYS);
        keys.add("hybris.rmds.type");
        return keys;
    }

    static {
        CORE.put("hybris.f", b -> v -> b.f(ConfigValues.parseInt("hybris.f", v)));
        CORE.put("hybris.client-id", b -> b::clientId);
        CORE.put("hybris.deadline", b -> v -> b.deadline(ConfigValues.parseDuration("hybris.deadline", v)));
        CORE.put("hybris.value.max-size",
                b -> v -> b.maxValueSize(ConfigValues.parseSize("hybris.value.max-size", v)));
        CORE.put("hybris.chunk.threshold",
                b -> v -> b.chunkThreshold(ConfigValues.parseSize("hybris.chunk.threshold", v)));
        CORE.put("hybris.chunk.size", b -> v -> b.chunkSize(ConfigValues.parseSize("hybris.chunk.size", v)));
        CORE.put("hybris.chunk.parallel-uploads",
                b -> v -> b.chunkParallelUploads(ConfigValues.parseInt("hybris.chunk.parallel-uploads", v)));
        CORE.put("hybris.chunk.read-ahead",
                b -> v -> b.chunkReadAhead(ConfigValues.parseInt("hybris.chunk.read-ahead", v)));
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
                b -> v -> b.startupProbe(StartupProbe.parse("hybris.ranking.probe-on-open", v)));
        CORE.put("hybris.ranking.probe-interval",
                b -> v -> b.probeInterval(ConfigValues.parseDuration("hybris.ranking.probe-interval", v)));
        CORE.put("hybris.get.hedge", b -> v -> b.reads(b.reads.toBuilder()
                .hedge(ConfigValues.parseBoolean("hybris.get.hedge", v)).build()));
        CORE.put("hybris.get.speculate", b -> v -> b.reads(b.reads.toBuilder()
                .speculate(ConfigValues.parseBoolean("hybris.get.speculate", v)).build()));
        CORE.put("hybris.get.hedge.min-delay", b -> v -> b.reads(b.reads.toBuilder()
                .hedgeMinDelay(ConfigValues.parseDuration("hybris.get.hedge.min-delay", v)).build()));
        CORE.put("hybris.get.quarantine.after", b -> v -> b.reads(b.reads.toBuilder()
                .quarantineAfter(ConfigValues.parseInt("hybris.get.quarantine.after", v)).build()));
        CORE.put("hybris.get.quarantine.duration", b -> v -> b.reads(b.reads.toBuilder()
                .quarantineDuration(ConfigValues.parseDuration("hybris.get.quarantine.duration", v)).build()));
        CORE.put("hybris.get.superseded-retention", b -> v -> b.reads(b.reads.toBuilder()
                .supersededRetention(ConfigValues.parseDuration("hybris.get.superseded-retention", v)).build()));
        CORE.put("hybris.scrub.interval",
                b -> v -> b.scrubInterval(ConfigValues.parseDuration("hybris.scrub.interval", v)));
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
            if (k.startsWith(HybrisConfig.PREFIX)) {
                props.put(k.trim(), v);
            }
        });
        Builder b = HybrisConfig.builder();
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
                    || key.startsWith(CacheSettings.PREFIX) || CostSettings.isCostKey(key)) {
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
            known.add("hybris.cloud.<id>.price.<item>");
            known.add("hybris.placement[.<option>]");
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
        override(props, env, CostSettings.PLACEMENT_KEY);
        try {
            b.costs(CostSettings.fromProperties(props));
        } catch (IllegalArgumentException e) {
            throw new HybrisConfigurationException(e.getMessage(), e);
        }
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
        return Optional.ofNullable(env.get(HybrisConfig.environmentVariableFor(key)));
    }
}
