/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper;
import io.hybris.spi.CloudStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Two sync clients, alice and bob, each with a Hybris client of its own (client ids {@code alice} and
 * {@code bob}) on one deployment: an embedded ZooKeeper and three directory "clouds" (f=1). Each syncs its folder
 * with the container {@value #CONTAINER} and prints one line per upload, download, deletion and conflict, until
 * Ctrl-C. Create, edit or delete a file in one folder and watch it appear in the other; edit one file in both
 * folders at once to get a conflicted copy (examples/sync/README.md).
 *
 * <pre>{@code
 * examples/sync/demo.sh                                  # folders under target/sync-demo
 * mvn -pl examples exec:java -Dexec.mainClass=io.hybris.examples.sync.SyncDemo -Dexec.args="/tmp/a /tmp/b"
 * }</pre>
 */
public final class SyncDemo {
    /** The container both folders are synced with. */
    public static final String CONTAINER = "sync-demo";

    private SyncDemo() {
    }

    /**
     * Runs the demo until the JVM is stopped. Arguments (all optional): alice's folder (default
     * {@code target/sync-demo/alice}), bob's folder (default {@code target/sync-demo/bob}), the data directory of
     * the metadata and the clouds (default {@code data} beside alice's folder).
     */
    public static void main(String[] args) throws InterruptedException {
        // one line per sync event: keep ZooKeeper's and Curator's start-up chatter out (before any logger exists)
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.zookeeper", "error");
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.curator", "warn");
        Path alice = Path.of(args.length > 0 ? args[0] : "target/sync-demo/alice").toAbsolutePath();
        Path bob = Path.of(args.length > 1 ? args[1] : "target/sync-demo/bob").toAbsolutePath();
        Path data = args.length > 2 ? Path.of(args[2]).toAbsolutePath() : alice.resolveSibling("data");
        Running demo = start(alice, bob, data, Duration.ofSeconds(1), System.out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            demo.close();
            System.out.println("stopped.");
            stopped.countDown();
        }));
        System.out.println("syncing " + alice + " <-> " + bob + " (data in " + data + "); Ctrl-C to stop");
        stopped.await();
    }

    /**
     * Starts the demo: the embedded ZooKeeper with its data under {@code data}, two Hybris clients, and the two
     * sync clients scanning every {@code scanInterval} (and woken by a folder watch), printing to {@code out}.
     * Close the result to stop everything.
     */
    public static Running start(Path alice, Path bob, Path data, Duration scanInterval, PrintStream out) {
        Running r = new Running();
        try {
            EmbeddedZooKeeper zk = r.add(EmbeddedZooKeeper.start(data.resolve("zookeeper"), 0));
            List<CloudStore> clouds = List.of(
                    new DirectoryCloudStore("disk1", data.resolve("cloud-disk1")),
                    new DirectoryCloudStore("disk2", data.resolve("cloud-disk2")),
                    new DirectoryCloudStore("disk3", data.resolve("cloud-disk3")));
            for (String name : List.of("alice", "bob")) {
                HybrisConfig.Builder config = HybrisConfig.builder().f(1).clientId(name)
                        .metadataStore("zookeeper", Map.of("connect", zk.connectString()));
                clouds.forEach(config::cloud);
                Hybris hybris = r.add(Hybris.open(config.build()));
                SyncSettings settings = SyncSettings.defaults().withScanInterval(scanInterval)
                        .withListener(e -> out.printf("[%-5s] %s%n", name, e));
                r.add(SyncClient.start(hybris, CONTAINER, name.equals("alice") ? alice : bob, settings));
            }
            return r;
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** A running demo: closing it stops the sync clients, the Hybris clients and ZooKeeper, in that order. */
    public static final class Running implements AutoCloseable {
        private final List<AutoCloseable> parts = new ArrayList<>();

        private Running() {
        }

        private <T extends AutoCloseable> T add(T part) {
            parts.add(part);
            return part;
        }

        @Override
        public synchronized void close() {
            for (int i = parts.size() - 1; i >= 0; i--) {
                try {
                    parts.get(i).close();
                } catch (Exception e) {
                    System.err.println("closing " + parts.get(i) + " failed: " + e);
                }
            }
            parts.clear();
        }
    }
}
