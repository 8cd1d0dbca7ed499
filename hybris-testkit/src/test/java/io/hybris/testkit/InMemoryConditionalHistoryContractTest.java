/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;

/** Linearizable histories of plain and conditional writes over the in-memory metadata store. */
class InMemoryConditionalHistoryContractTest extends ConditionalHistoryContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }
}
