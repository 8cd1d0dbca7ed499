/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.ChangeCursor;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.MetadataStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Clients on the embedded ZooKeeper opened and closed many times in one JVM, and an embedded server that cannot
 * start: neither leaves threads, sockets or the data directory's lock behind (the lifecycle hunt found a start on
 * a port in use kept the server's socket and selector open, three descriptors per attempt), and closing keeps the
 * caller's interrupt.
 */
class EmbeddedZooKeeperLifecycleTest {
    @TempDir
    Path dir;

    private Map<String, String> properties(int port) {
        Map<String, String> p = new HashMap<>(Map.of("hybris.rmds.type", "embedded-zookeeper",
                "hybris.rmds.embedded-zookeeper.data-dir", dir.resolve("zk").toString(),
                "hybris.rmds.embedded-zookeeper.port", Integer.toString(port), "hybris.f", "1"));
        for (String cloud : new String[]{"a", "b", "c"}) {
            p.put("hybris.cloud." + cloud + ".type", "memory");
        }
        return p;
    }

    @Test
    void clientsOpenedAndClosedManyTimesLeaveNoThreadsOrFiles() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files on Linux");
        HybrisConfig config = HybrisConfig.fromMap(properties(0), Map.of());
        try (Hybris h = Hybris.open(config)) { // the classes and ZooKeeper's JVM-wide state, before any count
            h.put("photos", "cat.jpg", new byte[1]);
        }
        long threads = Thread.activeCount();
        long files = openFiles();
        for (int i = 0; i < 20; i++) {
            try (Hybris h = Hybris.open(config)) {
                h.put("photos", "cat.jpg", new byte[]{(byte) i});
                h.subscribe("photos", "", ChangeCursor.BEGINNING, change -> { });
            }
        }
        awaitAtMost(Thread::activeCount, threads);
        awaitAtMost(EmbeddedZooKeeperLifecycleTest::openFiles, files);
    }

    @Test
    void aPortInUseLeavesNoSocketOpenAndTheDataDirFree() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files on Linux");
        EmbeddedZooKeeper.start(dir.resolve("zk"), 0).close(); // the classes, before any count
        try (ServerSocket busy = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int port = busy.getLocalPort();
            long files = openFiles();
            for (int i = 0; i < 10; i++) {
                assertThatThrownBy(() -> Hybris.open(HybrisConfig.fromMap(properties(port), Map.of())))
                        .isInstanceOf(MetadataStoreException.class)
                        .hasMessageStartingWith("cannot start the embedded ZooKeeper on 127.0.0.1:" + port)
                        .hasCauseInstanceOf(BindException.class);
            }
            awaitAtMost(EmbeddedZooKeeperLifecycleTest::openFiles, files);
        }
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zk"), 0)) {
            assertThat(zk.port()).isPositive();
        }
    }

    /**
     * A client closed on an interrupted thread (a cancelled task's clean-up) stays interrupted and still stops the
     * server: the next client opens on the same data directory. Found by the lifecycle hunt: ZooKeeper's server
     * shutdown swallowed the interrupt (and skipped closing its connections).
     */
    @Test
    void closingOnAnInterruptedThreadKeepsTheInterrupt() {
        HybrisConfig config = HybrisConfig.fromMap(properties(0), Map.of());
        for (int i = 0; i < 3; i++) {
            Hybris h = Hybris.open(config);
            h.put("photos", "cat.jpg", new byte[]{(byte) i});
            Thread.currentThread().interrupt();
            h.close();
            assertThat(Thread.interrupted()).as("interrupted after close #%d", i).isTrue();
        }
        try (Hybris h = Hybris.open(config)) {
            assertThat(h.list("photos")).containsExactly("cat.jpg"); // the metadata (the clouds are in memory)
        }
    }

    /** Waits, at most 10 s, until {@code count} is at most {@code limit}; fails with the last count otherwise. */
    private static void awaitAtMost(LongSupplier count, long limit) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(count.getAsLong())
                .isLessThanOrEqualTo(limit));
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
