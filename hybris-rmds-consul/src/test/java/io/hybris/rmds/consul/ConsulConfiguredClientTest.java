/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.testkit.ConfiguredClientContract;
import io.hybris.testkit.ConsulTestAgent;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consul selected and configured by configuration only ({@link ConfiguredClientContract}): properties file,
 * token from the environment (on an agent with ACLs), unreachable agent, unknown, missing and invalid options,
 * the provider. A dev agent when one is needed.
 */
class ConsulConfiguredClientTest extends ConfiguredClientContract {
    private static final String KEY_PREFIX = "from-properties";
    private ConsulTestAgent agent;

    @Override
    protected StoreOptions storeOptions() {
        return new StoreOptions("consul", "Consul", "address", "connect-timeout", "token",
                List.of("consistent", "default", "stale"),
                Set.of("address", "key-prefix", "read-mode", "token", "datacenter", "tls", "trust-store",
                        "trust-store-password", "tls-truststore", "tls-truststore-password", "connect-timeout",
                        "read-timeout", "operation-timeout", "start-timeout", "watch-wait", "changes-retention"),
                ConsulMetadataStoreProvider.class);
    }

    @Override
    protected String startServer() {
        agent = ConsulTestAgent.dev();
        return agent.address();
    }

    /** ACLs on, {@code default_policy = "deny"}: nothing is written without the management token. */
    @Override
    protected String startServerRequiringCredential() {
        agent = ConsulAclTest.agentWithAcls();
        return agent.address();
    }

    @Override
    protected void closeServer() {
        if (agent != null) {
            agent.close();
        }
    }

    @Override
    protected String credential() {
        return ConsulAclTest.MANAGEMENT;
    }

    /** On an agent that denies everything else, the write landed: the token was sent. */
    @Override
    protected void assertWrittenWithCredential(String address, MetadataKey key) {
        assertThat(new ConsulHttp(address, ConsulAclTest.MANAGEMENT)
                .rawValue(KEY_PREFIX + "/" + key.container() + "/" + key.key()))
                .isEqualTo("v".getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected Map<String, String> namespaceOptions() {
        return Map.of("key-prefix", KEY_PREFIX, "read-mode", "consistent");
    }

    /** {@code <key-prefix>/<container>/<encoded key>} on that agent. */
    @Override
    protected void assertStoredWhereConfigured(String address, MetadataKey key) {
        try (ConsulMetadataStore raw = ConsulMetadataStore.builder().address(address).keyPrefix(KEY_PREFIX).build()) {
            assertThat(raw.read(key)).isPresent();
            assertThat(raw.containers()).containsExactly(key.container());
        }
    }
}
