/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ChangeFeedRaceContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The change feed under the commit rule's races ({@link ChangeFeedRaceContract}) over a real Consul dev agent. */
class ConsulChangeFeedRaceContractTest extends ChangeFeedRaceContract {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    @Override
    protected MetadataStore newMetadataStore() {
        return ConsulMetadataStore.builder()
                .address(CONSUL.address())
                .keyPrefix(CONSUL.uniquePrefix("feed-race-"))
                .build();
    }
}
