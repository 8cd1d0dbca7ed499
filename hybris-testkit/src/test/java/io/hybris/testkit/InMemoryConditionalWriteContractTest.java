/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;

/** Conditional writes over the in-memory metadata store. */
class InMemoryConditionalWriteContractTest extends ConditionalWriteContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }
}
