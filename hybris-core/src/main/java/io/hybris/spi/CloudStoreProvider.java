/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Set;

/**
 * Creates {@link CloudStore}s of one type, found with {@link java.util.ServiceLoader} from the configuration
 * {@code hybris.cloud.<id>.type=<type>}. Register an implementation in
 * {@code META-INF/services/io.hybris.spi.CloudStoreProvider}.
 */
public interface CloudStoreProvider {

    /** The value of {@code hybris.cloud.<id>.type} that selects this provider, e.g. {@code directory}. */
    String type();

    /**
     * The option names this provider understands (without the {@code hybris.cloud.<id>.} prefix). Any other
     * option is rejected as a likely typo. Each may also be given as an environment variable
     * ({@code HYBRIS_CLOUD_<ID>_<OPTION>}, upper case, dots and dashes as underscores).
     */
    Set<String> optionNames();

    /** Creates a store; invalid or missing options throw {@link io.hybris.HybrisConfigurationException}. */
    CloudStore create(String cloudId, ProviderOptions options);
}
