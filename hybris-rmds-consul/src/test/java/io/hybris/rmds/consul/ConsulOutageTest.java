/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.testkit.MetadataStoreOutageContract;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent dies (SIGKILL; {@link MetadataStoreOutageContract}): calls fail fast and clearly, a pending watch fires
 * conservatively, and after a restart on the same data directory calls succeed again and nothing is lost. A single
 * server with its data on disk ({@code -bootstrap-expect=1}, not dev mode), so the restart brings the data back.
 */
class ConsulOutageTest extends MetadataStoreOutageContract<ConsulMetadataStore> {
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    private ConsulTestAgent agent;

    @Override
    protected void startServer() {
        agent = ConsulTestAgent.persistentServer();
    }

    @Override
    protected ConsulMetadataStore newStore() {
        return ConsulMetadataStore.builder()
                .address(agent.address())
                .keyPrefix("outage")
                .connectTimeout(Duration.ofSeconds(1))
                .readTimeout(READ_TIMEOUT)
                .operationTimeout(OPERATION_TIMEOUT)
                .build();
    }

    @Override
    protected void stopServer() {
        agent.kill();
    }

    @Override
    protected void restartServer() {
        agent.restart();
    }

    @Override
    protected void closeServer() {
        if (agent != null) {
            agent.close();
        }
    }

    @Override
    protected String serverName() {
        return "Consul";
    }

    @Override
    protected List<String> unavailableMessageParts() {
        return List.of("Consul unavailable", "operation-timeout 1s");
    }

    /** Twice the documented worst case (operation-timeout plus one request's read timeout). */
    @Override
    protected Duration failWithin() {
        return OPERATION_TIMEOUT.plus(READ_TIMEOUT).multipliedBy(2);
    }

    /** The blocking query fails, its retries fail for operation-timeout, then it fires so the reader re-reads. */
    @Override
    protected boolean watchFiresDuringOutage() {
        return true;
    }

    @Override
    protected void afterWatchFiredDuringOutage() {
        assertThat(store.activeWatches()).isZero();
    }
}
