/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ChangeLogContract;
import io.hybris.testkit.ListingContract;
import io.hybris.testkit.MetadataStoreContract;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * The {@link MetadataStoreContract} against {@link ConsulMetadataStore} in the default {@code consistent} read mode,
 * on one real Consul dev agent per class; each test gets its own key prefix.
 */
class ConsulMetadataStoreContractTest extends MetadataStoreContract {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    /** The read mode under test. */
    ConsulMetadataStore.ReadMode readMode() {
        return ConsulMetadataStore.ReadMode.CONSISTENT;
    }

    @Override
    protected MetadataStore newStore() {
        return ConsulMetadataStore.builder()
                .address(CONSUL.address())
                .keyPrefix("contract/" + readMode().optionValue() + CONSUL.uniquePrefix("-"))
                .readMode(readMode())
                .operationTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** The change log ({@link ChangeLogContract}), same server. */
    @Nested
    class ChangeLog extends ChangeLogContract {
        @Override
        protected MetadataStore newStore() {
            return ConsulMetadataStoreContractTest.this.newStore();
        }
    }

    /** Listings under change and over odd keys ({@link ListingContract}), same server. */
    @Nested
    class Listing extends ListingContract {
        @Override
        protected MetadataStore newStore() {
            return ConsulMetadataStoreContractTest.this.newStore();
        }
    }
}
