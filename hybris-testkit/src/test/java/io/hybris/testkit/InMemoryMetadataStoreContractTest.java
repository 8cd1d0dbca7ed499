/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Nested;

/** The {@link MetadataStoreContract} against the reference {@link InMemoryMetadataStore}. */
class InMemoryMetadataStoreContractTest extends MetadataStoreContract {

    @Override
    protected MetadataStore newStore() {
        return new InMemoryMetadataStore();
    }

    /** The change log ({@link ChangeLogContract}), same server. */
    @Nested
    class ChangeLog extends ChangeLogContract {
        @Override
        protected MetadataStore newStore() {
            return InMemoryMetadataStoreContractTest.this.newStore();
        }
    }

    /** Listings under change and over odd keys ({@link ListingContract}), same server. */
    @Nested
    class Listing extends ListingContract {
        @Override
        protected MetadataStore newStore() {
            return InMemoryMetadataStoreContractTest.this.newStore();
        }
    }
}
