/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;

/** Runs the {@link CloudStoreContract} against {@link InMemoryCloudStore}. */
class InMemoryCloudStoreContractTest extends CloudStoreContract {
    @Override
    protected CloudStore newStore() {
        return new InMemoryCloudStore("mem1");
    }
}
