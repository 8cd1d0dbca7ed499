/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Nested;

/** The end-to-end suite over the in-memory metadata store. */
class InMemoryHybrisContractTest extends HybrisContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    /** Listings while keys change between pages ({@link ListingUnderChangeContract}), same store. */
    @Nested
    class ListingUnderChange extends ListingUnderChangeContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return InMemoryHybrisContractTest.this.newMetadataStore();
        }
    }
}
