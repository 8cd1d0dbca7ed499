/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.spi.CloudStore;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How one cloud is obtained: either a {@link CloudStore} instance supplied by the application (which keeps
 * ownership and closes it), or a provider type and its options, created by Hybris (and closed with it).
 * Immutable.
 */
public final class CloudSpec {
    private final String id;
    private final String type;
    private final Map<String, String> options;
    private final CloudStore instance;

    private CloudSpec(String id, String type, Map<String, String> options, CloudStore instance) {
        this.id = id;
        this.type = type;
        this.options = Map.copyOf(options);
        this.instance = instance;
    }

    /** A cloud created by the provider of {@code type} from {@code options}. */
    public static CloudSpec of(String id, String type, Map<String, String> options) {
        return new CloudSpec(Objects.requireNonNull(id, "id"), Objects.requireNonNull(type, "type"),
                Objects.requireNonNull(options, "options"), null);
    }

    /** An application-supplied store; Hybris does not close it. */
    public static CloudSpec of(CloudStore store) {
        Objects.requireNonNull(store, "store");
        return new CloudSpec(store.id(), "instance", Map.of(), store);
    }

    /** The cloud id recorded in metadata. */
    public String id() {
        return id;
    }

    /** The provider type, or {@code instance} for an application-supplied store. */
    public String type() {
        return type;
    }

    /** The provider options (name without the {@code hybris.cloud.<id>.} prefix). */
    public Map<String, String> options() {
        return options;
    }

    /** The application-supplied store, if any. */
    public Optional<CloudStore> instance() {
        return Optional.ofNullable(instance);
    }

    @Override
    public String toString() {
        return id + "(" + type + ")";
    }
}
