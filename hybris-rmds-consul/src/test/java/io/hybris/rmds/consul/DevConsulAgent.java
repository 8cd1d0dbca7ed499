/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Consul dev agent ({@link ConsulTestAgent#dev()}) for a test class, and a fresh key prefix per store, so tests
 * in a class never see each other's keys. Register it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final DevConsulAgent CONSUL = new DevConsulAgent();
 * ... ConsulMetadataStore.builder().address(CONSUL.address()).keyPrefix(CONSUL.uniquePrefix("test-")) ...
 * }</pre>
 * The agent starts before the class's {@code @BeforeAll} methods and stops after its {@code @AfterAll} methods;
 * {@code @Nested} classes share it (their callbacks only count).
 */
final class DevConsulAgent implements BeforeAllCallback, AfterAllCallback {
    private final AtomicInteger prefixes = new AtomicInteger();
    private int classes; // outer class and nested classes running: the agent stops when the outer one ends
    private ConsulTestAgent agent;

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (classes++ == 0) {
            agent = ConsulTestAgent.dev();
        }
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (--classes == 0) {
            agent.close();
            agent = null;
        }
    }

    /** The agent's HTTP {@code host:port}. */
    synchronized String address() {
        return agent.address();
    }

    /** {@code prefix} followed by a number no other call of this agent's tests got. */
    String uniquePrefix(String prefix) {
        return prefix + prefixes.incrementAndGet();
    }
}
