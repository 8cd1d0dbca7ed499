/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Hybris core: the client API ({@code io.hybris}), the service-provider interfaces that clouds, metadata stores,
 * value caches and erasure coders implement ({@code io.hybris.spi}), the local stores for tests and embedding
 * ({@code io.hybris.cloud}, {@code io.hybris.metadata}), the key providers ({@code io.hybris.crypto}) and cost
 * accounting, estimation and prices ({@code io.hybris.cost}). The
 * protocol in {@code io.hybris.internal} is not exported: a module that imports it does not compile.
 */
module io.hybris.core {
    requires org.slf4j;

    exports io.hybris;
    exports io.hybris.spi;
    exports io.hybris.spi.support;
    exports io.hybris.cloud;
    exports io.hybris.metadata;
    exports io.hybris.crypto;
    exports io.hybris.cost;

    uses io.hybris.spi.CloudStoreProvider;
    uses io.hybris.spi.MetadataStoreProvider;
    uses io.hybris.spi.ValueCacheProvider;
    uses io.hybris.spi.ErasureCoderProvider;

    provides io.hybris.spi.CloudStoreProvider with
            io.hybris.cloud.LocalCloudStoreProviders.Memory,
            io.hybris.cloud.LocalCloudStoreProviders.Directory;
    provides io.hybris.spi.MetadataStoreProvider with io.hybris.metadata.InMemoryMetadataStore.Provider;
}
