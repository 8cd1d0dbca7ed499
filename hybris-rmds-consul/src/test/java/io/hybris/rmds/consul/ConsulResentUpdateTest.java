/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ResentUpdateContract;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

/**
 * {@link ResentUpdateContract} on a Consul agent: a transaction whose answer is lost after Consul applied it is sent
 * again (by OkHttp on a failed connection, or by the store's retry); every send on the wire is counted.
 */
class ConsulResentUpdateTest extends ResentUpdateContract {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    @Override
    protected String serverHost() {
        return CONSUL.address().split(":")[0];
    }

    @Override
    protected int serverPort() {
        return Integer.parseInt(CONSUL.address().split(":")[1]);
    }

    @Override
    protected String serverAddress() {
        return CONSUL.address();
    }

    @Override
    protected String newNamespace() {
        return CONSUL.uniquePrefix("resent-");
    }

    @Override
    protected MetadataStore open(String address, String namespace) {
        return ConsulMetadataStore.builder().address(address).keyPrefix(namespace)
                .operationTimeout(Duration.ofSeconds(20)).build();
    }
}
