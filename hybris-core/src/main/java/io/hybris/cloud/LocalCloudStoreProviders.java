/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud;

import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.util.Set;

/** The {@link CloudStoreProvider}s of the local stores that ship with core. */
public final class LocalCloudStoreProviders {
    private LocalCloudStoreProviders() {
    }

    /** {@code hybris.cloud.<id>.type=directory} with {@code hybris.cloud.<id>.path=<directory>}. */
    public static final class Directory implements CloudStoreProvider {
        /** The provider, as {@link java.util.ServiceLoader} creates it. */
        public Directory() {
        }

        @Override
        public String type() {
            return "directory";
        }

        @Override
        public Set<String> optionNames() {
            return Set.of("path");
        }

        @Override
        public CloudStore create(String cloudId, ProviderOptions options) {
            return new DirectoryCloudStore(cloudId, options.path("path").orElseThrow(() ->
                    new io.hybris.HybrisConfigurationException(options.qualified("path")
                            + " is required: the directory that holds this cloud's objects")));
        }
    }

    /** {@code hybris.cloud.<id>.type=memory}: objects live in this JVM only. */
    public static final class Memory implements CloudStoreProvider {
        /** The provider, as {@link java.util.ServiceLoader} creates it. */
        public Memory() {
        }

        @Override
        public String type() {
            return "memory";
        }

        @Override
        public Set<String> optionNames() {
            return Set.of();
        }

        @Override
        public CloudStore create(String cloudId, ProviderOptions options) {
            return new InMemoryCloudStore(cloudId);
        }
    }
}
