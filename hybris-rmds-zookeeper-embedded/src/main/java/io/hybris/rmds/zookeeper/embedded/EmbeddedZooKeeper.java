/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.MetadataStoreException;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A standalone ZooKeeper server in this process, for the single-process default setup and for tests.
 *
 * <pre>{@code
 * try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(Path.of("/var/lib/myapp/zk"), 0)) {
 *     String connect = zk.connectString();     // 127.0.0.1:<free port>
 *     ...
 * }
 * }</pre>
 *
 * Built directly from ZooKeeper's server classes ({@link ZooKeeperServer} behind a {@link ServerCnxnFactory}),
 * not from a test harness: it listens on 127.0.0.1 only, keeps its snapshots and transaction log in the data
 * directory (so data survives a restart on the same directory; every write is synced to disk before it is
 * acknowledged), starts no admin server and sets no global system properties. A lock file in the data
 * directory stops two embedded servers from sharing it. ZooKeeper writes a new snapshot and transaction log about
 * every 100,000 transactions and deletes none itself; this server deletes all but the newest
 * {@value #SNAPSHOTS_KEPT} snapshots and the logs they need at start and every {@link #PURGE_INTERVAL} (what a
 * standalone server's {@code autopurge} does), so the data directory does not grow without bound. It offers no
 * replication: the metadata is as durable as the one disk, and the service is down while the process is.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final int TICK_TIME_MS = 2000;
    private static final String LOCK_FILE = "hybris-embedded-zookeeper.lock";
    /** Snapshots kept in the data directory, with the transaction logs they need (autopurge's minimum). */
    static final int SNAPSHOTS_KEPT = 3;
    /** How often older snapshots and transaction logs are deleted while the server runs. */
    static final Duration PURGE_INTERVAL = Duration.ofHours(1);

    private final Path dataDir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final FileTxnSnapLog txnLog;
    private final ServerCnxnFactory factory;
    private final int port;
    private final ScheduledExecutorService purger;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedZooKeeper(Path dataDir, FileChannel lockChannel, FileLock lock, FileTxnSnapLog txnLog,
                              ServerCnxnFactory factory) {
        this.dataDir = dataDir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.txnLog = txnLog;
        this.factory = factory;
        this.port = factory.getLocalPort();
        this.purger = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hybris-embedded-zookeeper-purge");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts a server on 127.0.0.1.
     *
     * @param dataDir where snapshots and the transaction log live (created if missing)
     * @param port    the client port, or 0 for a free one
     * @throws DataDirectoryInUseException if another embedded server (in this process or another) uses the directory
     * @throws MetadataStoreException       if the directory is unusable or the port is taken
     */
    public static EmbeddedZooKeeper start(Path dataDir, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 (a free port) or 1-65535, was " + port);
        }
        Path dir = dataDir.toAbsolutePath();
        FileChannel lockChannel = null;
        FileLock lock = null;
        FileTxnSnapLog txnLog = null;
        ServerCnxnFactory factory = null;
        try {
            Files.createDirectories(dir);
            lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new DataDirectoryInUseException(dir);
            }
            txnLog = new FileTxnSnapLog(dir.toFile(), dir.toFile());
            ZooKeeperServer server = new ZooKeeperServer(txnLog, TICK_TIME_MS, "");
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port);
            // created before it binds, so that cleanUp releases its socket and selectors if the port is taken
            factory = ServerCnxnFactory.createFactory();
            factory.configure(address, 0);
            factory.startup(server);
            EmbeddedZooKeeper zk = new EmbeddedZooKeeper(dir, lockChannel, lock, txnLog, factory);
            zk.purge(); // the server has loaded its data and taken a snapshot of it
            zk.purger.scheduleWithFixedDelay(zk::purge, PURGE_INTERVAL.toMillis(), PURGE_INTERVAL.toMillis(),
                    TimeUnit.MILLISECONDS);
            LOG.info("embedded ZooKeeper listening on {} with data in {}", zk.connectString(), dir);
            return zk;
        } catch (IOException | RuntimeException e) {
            cleanUp(factory, txnLog, lockChannel);
            if (e instanceof MetadataStoreException m) {
                throw m;
            }
            throw new MetadataStoreException("cannot start the embedded ZooKeeper on 127.0.0.1:" + port
                    + " with data in " + dir + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleanUp(factory, txnLog, lockChannel);
            throw new MetadataStoreException("interrupted while starting the embedded ZooKeeper in " + dir, e);
        }
    }

    /** The port the server listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The connect string for clients: {@code 127.0.0.1:<port>}. */
    public String connectString() {
        return "127.0.0.1:" + port;
    }

    /** The data directory (absolute). */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Deletes all but the newest {@value #SNAPSHOTS_KEPT} snapshots and the transaction logs they do not need, as
     * ZooKeeper's {@code autopurge} does; a failure is logged (the next run retries).
     */
    void purge() {
        try {
            SnapshotPurge.keepNewest(txnLog, SNAPSHOTS_KEPT);
        } catch (RuntimeException e) {
            LOG.warn("deleting old snapshots and transaction logs in {} failed; retried in {}", dataDir,
                    PURGE_INTERVAL, e);
        }
    }

    /**
     * Stops the server, closing client connections, and releases the data directory. Called on an interrupted
     * thread, it stops the server all the same and leaves the thread interrupted.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // ZooKeeper's shutdown waits for its threads and swallows an interrupt, which cuts that wait short (its
        // connections not closed): it runs uninterrupted, and the caller's interrupt is restored after
        boolean interrupted = Thread.interrupted();
        try {
            stop();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void stop() {
        LOG.info("stopping embedded ZooKeeper on {}", connectString());
        purger.shutdownNow();
        try {
            // a purge under way ends before the data directory is released to another server
            if (!purger.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("a purge of {} still ran after 5 s; closing anyway", dataDir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        factory.shutdown(); // closes the connections, then shuts down the server
        try {
            txnLog.close();
        } catch (IOException e) {
            LOG.warn("closing the transaction log in {} failed", dataDir, e);
        }
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("releasing {} failed", dataDir.resolve(LOCK_FILE), e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedZooKeeper[" + connectString() + ", " + dataDir + "]";
    }

    private static void cleanUp(ServerCnxnFactory factory, FileTxnSnapLog txnLog, FileChannel lockChannel) {
        if (factory != null) {
            factory.shutdown();
        }
        try {
            if (txnLog != null) {
                txnLog.close();
            }
            if (lockChannel != null) {
                lockChannel.close(); // releases the lock
            }
        } catch (IOException e) {
            LOG.debug("cleanup after a failed start", e);
        }
    }
}
