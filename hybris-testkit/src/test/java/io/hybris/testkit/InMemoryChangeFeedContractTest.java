/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;

/** The change feed over the in-memory metadata store. */
class InMemoryChangeFeedContractTest extends ChangeFeedContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    @Override
    protected MetadataStore newMetadataStore(int retention) {
        return new InMemoryMetadataStore(retention);
    }
}
