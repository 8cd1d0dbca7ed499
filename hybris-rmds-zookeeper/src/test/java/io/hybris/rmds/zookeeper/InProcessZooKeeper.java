/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One in-process ZooKeeper server (curator-test) for a test class, and a fresh root per store, so tests in a class
 * never see each other's znodes. Register it in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final InProcessZooKeeper ZK = new InProcessZooKeeper();
 * ... ZooKeeperMetadataStore.builder().connect(ZK.connectString()).root(ZK.uniqueRoot("/test-")) ...
 * }</pre>
 * The server starts before the class's {@code @BeforeAll} methods and stops after its {@code @AfterAll} methods;
 * {@code @Nested} classes share it (their callbacks only count).
 */
final class InProcessZooKeeper implements BeforeAllCallback, AfterAllCallback {
    private final AtomicInteger roots = new AtomicInteger();
    private int classes; // outer class and nested classes running: the server stops when the outer one ends
    private TestingServer server;

    @Override
    public synchronized void beforeAll(ExtensionContext context) throws Exception {
        if (classes++ == 0) {
            server = new TestingServer(true);
        }
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) throws Exception {
        if (--classes == 0) {
            server.close();
            server = null;
        }
    }

    /** The server's {@code host:port}. */
    synchronized String connectString() {
        return server.getConnectString();
    }

    /** The server's port (e.g. for a proxy in front of it). */
    synchronized int port() {
        return server.getPort();
    }

    /** {@code prefix} followed by a number no other call of this server's tests got. */
    String uniqueRoot(String prefix) {
        return prefix + roots.incrementAndGet();
    }
}
