/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.spi.support.ChangeLogCompaction;
import io.hybris.spi.support.StandardOptions;
import io.hybris.testkit.ForwardingMetadataStore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The two sides of {@link ScalabilityBenchmark}: Hybris (one client over three in-memory clouds) and the raw
 * metadata client doing the same metadata requests (raw Curator / ZooKeeper handle, raw consul-client), both on the
 * same metadata store. Each caller has its own {@value #KEYS_PER_CALLER} keys, so callers never contend on a key
 * (contention on one key is {@link ContentionBenchmark}): what is measured is how the client scales with callers.
 */
final class ScalabilitySides {
    /** Keys of each caller, used round robin. */
    static final int KEYS_PER_CALLER = 4;
    /** Value size: small, so the metadata path dominates. */
    static final int VALUE_BYTES = 1024;

    /**
     * A what-if, off unless set: with {@code -Dhybris.bench.zookeeper-call-bound=<seconds>} the Hybris side's
     * ZooKeeper store reports that call-time bound ({@code MetadataStore.callTimeBound()}) instead of its own. It
     * measured what handing each metadata call to a pool thread cost while the store reported none; the store now
     * reports connect + operation + request timeouts + 1 s (26 s with the defaults), so its calls run on the
     * caller's thread without it.
     */
    static final String ZOOKEEPER_CALL_BOUND = "hybris.bench.zookeeper-call-bound";

    /**
     * A reference, off unless set: with {@code -Dhybris.bench.consul-raw-cas-only=true} the raw Consul PUT is the
     * read and a plain check-and-set of the key, without the change-log head and record a Hybris commit also writes
     * (what the raw side did until 2026-11-25): what the change log costs, not a fair baseline.
     */
    static final String CONSUL_RAW_CAS_ONLY = "hybris.bench.consul-raw-cas-only";

    /**
     * For profiling, unset by default: {@code -Dhybris.bench.worker-jvm-options="<options>"} adds these JVM options,
     * split at white space, to every worker process's command line, with {@code {worker}} replaced by the worker's
     * index (e.g. {@code -XX:StartFlightRecording=filename=worker-{worker}.jfr,settings=profile}).
     */
    static final String WORKER_JVM_OPTIONS = "hybris.bench.worker-jvm-options";

    private ScalabilitySides() {
    }

    /** The metadata stores compared. */
    enum StoreKind {
        ZOOKEEPER, CONSUL
    }

    /** One side: a client that GETs and PUTs a caller's keys. Thread-safe. */
    interface Side extends AutoCloseable {
        /** {@code hybris} or {@code raw}. */
        String name();

        /** One read of key {@code i} of caller {@code caller}. */
        void get(int caller, int i) throws Exception;

        /** One conditional write of key {@code i} of caller {@code caller}. */
        void put(int caller, int i) throws Exception;

        /** Creates the keys of callers {@code [0, callers)}, in parallel. */
        default void preload(int callers) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    int caller = c;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < KEYS_PER_CALLER; i++) {
                            create(caller, i);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdown();
            }
        }

        /** Creates (or overwrites) key {@code i} of caller {@code caller}. */
        void create(int caller, int i) throws Exception;

        @Override
        void close() throws Exception;
    }

    /**
     * The side {@code name} ({@code hybris} or {@code raw}) on the store at {@code endpoint} (a ZooKeeper connect
     * string or a Consul {@code host:port}); {@code namespace} keeps the keys of different processes apart.
     */
    static Side open(String name, StoreKind kind, String endpoint, String namespace) throws Exception {
        if (name.equals("hybris")) {
            return new HybrisSide(kind, endpoint, namespace);
        }
        return kind == StoreKind.ZOOKEEPER ? new CuratorSide(endpoint, namespace)
                : new ScalabilityConsulSide(endpoint, namespace, !Boolean.getBoolean(CONSUL_RAW_CAS_ONLY));
    }

    static String key(int caller, int i) {
        return "k-" + caller + "-" + i;
    }

    /** Hybris f=1 over three in-memory clouds, one client shared by all callers of the process. */
    static final class HybrisSide implements Side {
        private final Hybris hybris;
        private final String container;
        private final byte[] value = new byte[VALUE_BYTES];

        HybrisSide(StoreKind kind, String endpoint, String namespace) {
            Map<String, String> store = kind == StoreKind.ZOOKEEPER
                    ? Map.of("connect", endpoint, "root", "/scale-hybris")
                    : Map.of("address", endpoint, "key-prefix", "scale-hybris");
            this.container = "c-" + namespace;
            HybrisConfig.Builder config = Hybris.builder().f(1)
                    .metadataStore(kind == StoreKind.ZOOKEEPER ? "zookeeper" : "consul", store)
                    .cloud(new InMemoryCloudStore("m1")).cloud(new InMemoryCloudStore("m2"))
                    .cloud(new InMemoryCloudStore("m3"))
                    .probeInterval(Duration.ZERO).deadline(Duration.ofSeconds(30));
            String bound = System.getProperty(ZOOKEEPER_CALL_BOUND);
            if (kind == StoreKind.ZOOKEEPER && bound != null) {
                Optional<Duration> b = Optional.of(Duration.ofSeconds(Long.parseLong(bound)));
                config.metadataStore(new ForwardingMetadataStore(ZooKeeperMetadataStore.builder().connect(endpoint)
                        .root("/scale-hybris").build()) {
                    @Override
                    public Optional<Duration> callTimeBound() {
                        return b;
                    }
                });
            }
            this.hybris = Hybris.open(config.build());
        }

        @Override
        public String name() {
            return "hybris";
        }

        @Override
        public void get(int caller, int i) {
            if (hybris.get(container, key(caller, i)).isEmpty()) {
                throw new IllegalStateException("no value for " + key(caller, i));
            }
        }

        @Override
        public void put(int caller, int i) {
            hybris.put(container, key(caller, i), value);
        }

        @Override
        public void create(int caller, int i) {
            put(caller, i);
        }

        @Override
        public void close() {
            hybris.close();
        }
    }

    /**
     * Raw Curator on the same ZooKeeper, issuing the metadata requests Hybris's ZooKeeper store issues: a GET is the
     * store's linearizable read ({@code sync} and {@code getData} pipelined on the session's ZooKeeper handle), a PUT
     * that read then one {@code multi} of the version-checked {@code setData} and a sequential change-log record
     * (64 bytes, under this side's log znode), and the change log's compaction: the log keeps as many records as the
     * Hybris store's (its default retention, 20,000), and every retention / 10 commits the records beyond it are
     * deleted, oldest first, 250 per {@code multi}, by the caller whose commit is due (Hybris's runs in the
     * background, and lists the log's children first, since other clients append to it too; this side knows its
     * records). Until 2026-11-25 the raw PUT was the read and a plain {@code setData}, without the record a Hybris
     * commit also writes; and until later that day its log kept at most 250 records, a smaller tree than Hybris's.
     */
    static final class CuratorSide implements Side {
        /** Records the log keeps: the Hybris store's default retention. */
        private static final int RETENTION = StandardOptions.CHANGES_RETENTION.defaultValue().orElseThrow();
        /** Commits between two compactions: the Hybris store's average ({@link ChangeLogCompaction#interval}). */
        private static final int COMPACT_INTERVAL = ChangeLogCompaction.interval(RETENTION);
        /** Records deleted per {@code multi}, as the Hybris store's compaction. */
        private static final int DELETE_BATCH = 250;
        private final CuratorFramework curator;
        private final String base;
        private final String log;
        private final byte[] value = new byte[VALUE_BYTES];
        private final byte[] record = new byte[64];
        private final Queue<String> records = new ConcurrentLinkedQueue<>();
        private final AtomicLong commits = new AtomicLong();
        /** {@code records.size()}, which walks the queue. */
        private final AtomicLong held = new AtomicLong();

        CuratorSide(String connect, String namespace) throws Exception {
            this.curator = CuratorFrameworkFactory.newClient(connect, new RetryNTimes(3, 100));
            this.base = "/scale-raw/" + namespace;
            this.log = "/scale-raw-log/" + namespace;
            curator.start();
            if (!curator.blockUntilConnected(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no ZooKeeper connection to " + connect);
            }
            try {
                curator.create().creatingParentsIfNeeded().forPath(log);
            } catch (KeeperException.NodeExistsException e) {
                // a previous run's log: its records stay, as a Hybris container's log does
            }
        }

        @Override
        public String name() {
            return "raw";
        }

        private Stat read(String path) throws Exception {
            ZooKeeper zk = curator.getZookeeperClient().getZooKeeper();
            CompletableFuture<Integer> synced = new CompletableFuture<>();
            zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
            Stat stat = new Stat();
            zk.getData(path, false, stat);
            if (synced.get(10, TimeUnit.SECONDS) != KeeperException.Code.OK.intValue()) {
                throw new IllegalStateException("sync failed");
            }
            return stat;
        }

        @Override
        public void get(int caller, int i) throws Exception {
            read(base + "/" + key(caller, i));
        }

        @Override
        public void put(int caller, int i) throws Exception {
            String path = base + "/" + key(caller, i);
            int version = read(path).getVersion();
            List<CuratorTransactionResult> results = curator.transaction().forOperations(
                    curator.transactionOp().setData().withVersion(version).forPath(path, value),
                    curator.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                            .forPath(log + "/c-", record));
            records.add(results.get(1).getResultPath());
            held.incrementAndGet();
            if (commits.incrementAndGet() % COMPACT_INTERVAL == 0) {
                compact();
            }
        }

        /** Deletes the records beyond the retention, oldest first, {@value #DELETE_BATCH} per {@code multi}. */
        private void compact() throws Exception {
            while (held.get() > RETENTION) {
                List<CuratorOp> deletes = new ArrayList<>(DELETE_BATCH);
                for (int k = 0; k < DELETE_BATCH && held.get() > RETENTION; k++) {
                    String oldest = records.poll();
                    if (oldest == null) {
                        break;
                    }
                    held.decrementAndGet();
                    deletes.add(curator.transactionOp().delete().forPath(oldest));
                }
                if (deletes.isEmpty()) {
                    return;
                }
                curator.transaction().forOperations(deletes);
            }
        }

        @Override
        public void create(int caller, int i) throws Exception {
            String path = base + "/" + key(caller, i);
            try {
                curator.create().creatingParentsIfNeeded().forPath(path, value);
            } catch (KeeperException.NodeExistsException e) {
                curator.setData().forPath(path, value);
            }
        }

        @Override
        public void close() {
            curator.close();
        }
    }
}
