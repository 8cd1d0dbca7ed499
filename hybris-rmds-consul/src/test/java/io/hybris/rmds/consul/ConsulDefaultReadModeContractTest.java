/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

/**
 * The metadata store contract with {@code read-mode=default}: reads served from the leader's lease without the
 * quorum check (on a single agent nothing can be stale, so every test must pass unchanged).
 */
class ConsulDefaultReadModeContractTest extends ConsulMetadataStoreContractTest {

    @Override
    ConsulMetadataStore.ReadMode readMode() {
        return ConsulMetadataStore.ReadMode.DEFAULT;
    }
}
