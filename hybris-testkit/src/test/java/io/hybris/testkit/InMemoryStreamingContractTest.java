/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;

/** The large-value suite over the in-memory metadata store and in-memory clouds. */
class InMemoryStreamingContractTest extends StreamingContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }
}
