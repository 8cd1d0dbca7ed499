/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.support.ConfigValues;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The options given to one provider, e.g. everything under {@code hybris.cloud.aws.}, with typed accessors
 * whose errors name the full property key. Immutable.
 */
public final class ProviderOptions {
    private final String prefix;
    private final Map<String, String> values;

    /**
     * @param prefix the property prefix these options came from, e.g. {@code hybris.cloud.aws.}, for messages
     * @param values option name (without prefix) to value
     */
    public ProviderOptions(String prefix, Map<String, String> values) {
        this.prefix = prefix;
        this.values = Map.copyOf(values);
    }

    /** The full property key of an option, e.g. {@code hybris.cloud.aws.bucket}. */
    public String qualified(String name) {
        return prefix + name;
    }

    /** All options (name without prefix to value), sorted. */
    public Map<String, String> asMap() {
        return new TreeMap<>(values);
    }

    /** The option's value, if set and not blank. */
    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    /** The option's value; a missing one is a configuration error naming the key. */
    public String require(String name) {
        return get(name).orElseThrow(() -> new HybrisConfigurationException(
                qualified(name) + " is required but not set"));
    }

    /** A string option with a default. */
    public String string(String name, String defaultValue) {
        return get(name).orElse(defaultValue);
    }

    /** A duration such as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601 {@code PT30S}. */
    public Duration duration(String name, Duration defaultValue) {
        return get(name).map(v -> ConfigValues.parseDuration(qualified(name), v)).orElse(defaultValue);
    }

    /** An integer option with a default. */
    public int integer(String name, int defaultValue) {
        return get(name).map(v -> ConfigValues.parseInt(qualified(name), v)).orElse(defaultValue);
    }

    /** A boolean option ({@code true}/{@code false}) with a default. */
    public boolean bool(String name, boolean defaultValue) {
        return get(name).map(v -> ConfigValues.parseBoolean(qualified(name), v)).orElse(defaultValue);
    }

    /** A filesystem path option. */
    public Optional<Path> path(String name) {
        return get(name).map(Path::of);
    }

    @Override
    public String toString() {
        return prefix + "*" + values.keySet();
    }
}
