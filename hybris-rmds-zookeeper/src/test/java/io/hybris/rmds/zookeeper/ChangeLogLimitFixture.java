/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.FinalRequestProcessor;
import org.apache.zookeeper.server.PrepRequestProcessor;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.SyncRequestProcessor;
import org.apache.zookeeper.server.ZooKeeperServer;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * An in-process ZooKeeper server ({@link HookedServer}) on which tests set a change log's count of creations near
 * the 2^31 names ZooKeeper gives one znode, as two billion commits would leave it, and the stores and clients on it
 * (closed with it). Shared by the change-log generation tests.
 */
final class ChangeLogLimitFixture implements AutoCloseable {
    /** The number of the last name ZooKeeper gives a znode's children: {@code c-2147483647}. */
    static final long LAST = Integer.MAX_VALUE;
    /** Sequence numbers per generation. */
    static final long GENERATION = 1L << 32;

    final HookedServer server;
    private final ServerCnxnFactory factory;
    private final String root;
    private final List<AutoCloseable> closing = new ArrayList<>();

    ChangeLogLimitFixture(Path dir, String root) throws Exception {
        this.root = root;
        server = new HookedServer(dir.toFile());
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 0);
        factory.startup(server);
    }

    ZooKeeperMetadataStore store(int retention) {
        ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder().connect("127.0.0.1:" + factory.getLocalPort())
                .root(root).changesRetention(retention).build();
        closing.add(store);
        return store;
    }

    Hybris client(ZooKeeperMetadataStore store) {
        Hybris h = Hybris.open(Hybris.builder().f(1).metadataStore(store).cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1")).cloud(new InMemoryCloudStore("c2"))
                .deadline(Duration.ofSeconds(20)).build());
        closing.add(h);
        return h;
    }

    /** Sets the server's count of creations of the znode at {@code path} (as that many commits would leave it). */
    void setCreations(String path, long created) {
        DataNode node = server.getZKDatabase().getDataTree().getNode(path);
        synchronized (node) {
            node.stat.setCversion((int) created);
        }
    }

    static long sessionId(ZooKeeperMetadataStore store) throws Exception {
        return store.session().client().getZookeeperClient().getZooKeeper().getSessionId();
    }

    static void commit(ZooKeeperMetadataStore store, String container, String key) throws Exception {
        store.conditionalUpdate(new MetadataUpdate(new MetadataKey(container, key),
                "v".getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
    }

    static void commitUnchecked(ZooKeeperMetadataStore store, String container, String key) {
        try {
            commit(store, container, key);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        server.release.countDown();
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        factory.shutdown();
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * A standalone server that runs an action when a chosen request arrives (before handling it), and can hold a
     * chosen transaction before it is applied until another chosen request has been prepared.
     */
    static final class HookedServer extends ZooKeeperServer {
        private final AtomicReference<Predicate<Request>> arrival = new AtomicReference<>();
        private volatile ThrowingRunnable onArrival;
        private volatile Predicate<Request> held;
        private volatile CountDownLatch heldNow;
        private volatile Predicate<Request> releasedBy;
        final CountDownLatch release = new CountDownLatch(1);

        HookedServer(File dir) throws IOException {
            super(dir, dir, 2000);
        }

        void onArrival(Predicate<Request> which, ThrowingRunnable action) {
            onArrival = action;
            arrival.set(which);
        }

        void hold(Predicate<Request> which, CountDownLatch holding, Predicate<Request> until) {
            releasedBy = until;
            heldNow = holding;
            held = which;
        }

        @Override
        public void submitRequest(Request si) {
            Predicate<Request> which = arrival.get();
            if (which != null && which.test(si) && arrival.compareAndSet(which, null)) {
                try {
                    onArrival.run();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            super.submitRequest(si);
        }

        @Override
        protected void setupRequestProcessors() {
            RequestProcessor last = new FinalRequestProcessor(this);
            RequestProcessor gate = new RequestProcessor() {
                @Override
                public void processRequest(Request request) throws RequestProcessorException {
                    Predicate<Request> h = held;
                    if (h != null && h.test(request)) {
                        held = null;
                        heldNow.countDown();
                        try {
                            release.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    last.processRequest(request);
                }

                @Override
                public void shutdown() {
                    last.shutdown();
                }
            };
            SyncRequestProcessor sync = new SyncRequestProcessor(this, gate);
            sync.start();
            RequestProcessor prepared = new RequestProcessor() {
                @Override
                public void processRequest(Request request) throws RequestProcessorException {
                    sync.processRequest(request);
                    Predicate<Request> r = releasedBy;
                    if (r != null && r.test(request)) {
                        releasedBy = null;
                        release.countDown();
                    }
                }

                @Override
                public void shutdown() {
                    sync.shutdown();
                }
            };
            PrepRequestProcessor prep = new PrepRequestProcessor(this, prepared);
            prep.start();
            firstProcessor = prep;
        }
    }
}
