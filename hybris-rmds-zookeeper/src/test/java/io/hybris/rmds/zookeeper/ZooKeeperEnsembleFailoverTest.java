package io.hybris.rmds.zookeeper;

import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A 3-node ZooKeeper ensemble loses its leader in the middle of a write/read workload: no acknowledged write
 * may be lost, and every call in flight either completes or fails with a clear exception before its deadline.
 */
class ZooKeeperEnsembleFailoverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private TestingCluster cluster;
    private ZooKeeperMetadataStore store;
    private Hybris hybris;

    @AfterEach
    void tearDown() throws IOException {
        if (hybris != null) {
            hybris.close();
        }
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void leaderLossLosesNoAcknowledgedWriteAndNoCallOutlivesItsDeadline() throws Exception {
        cluster = new TestingCluster(3);
        cluster.start();
        store = ZooKeeperMetadataStore.builder()
                .connect(cluster.getConnectString())
                .root("/failover")
                .sessionTimeout(Duration.ofSeconds(10))
                .connectionTimeout(Duration.ofSeconds(5))
                .operationTimeout(Duration.ofSeconds(8))
                .build();
        hybris = Hybris.builder()
                .f(1)
                .metadataStore(store)
                .cloud(new InMemoryCloudStore("c0"))
                .cloud(new InMemoryCloudStore("c1"))
                .cloud(new InMemoryCloudStore("c2"))
                .deadline(DEADLINE)
                .open();

        int writers = 3;
        long[] lastAcked = new long[writers];
        long[] lastAttempted = new long[writers];
        AtomicLong acked = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Duration> slowest = new CopyOnWriteArrayList<>();
        ConcurrentHashMap<String, AtomicInteger> failureTypes = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(pool.submit(() -> {
                Duration worst = Duration.ZERO;
                for (long n = 1; !stop.get(); n++) {
                    lastAttempted[writer] = n;
                    long t0 = System.nanoTime();
                    try {
                        hybris.put("ha", "key-" + writer, Long.toString(n).getBytes(StandardCharsets.UTF_8));
                        lastAcked[writer] = n;
                        acked.incrementAndGet();
                    } catch (MetadataUnavailableException | DeadlineExceededException e) {
                        failures.add(e);
                        failureTypes.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    Duration took = Duration.ofNanos(System.nanoTime() - t0);
                    worst = took.compareTo(worst) > 0 ? took : worst;
                }
                slowest.add(worst);
                return null;
            }));
        }
        tasks.add(pool.submit(() -> {
            Duration worst = Duration.ZERO;
            while (!stop.get()) {
                long t0 = System.nanoTime();
                try {
                    hybris.get("ha", "key-0");
                } catch (MetadataUnavailableException | DeadlineExceededException e) {
                    failures.add(e);
                }
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                worst = took.compareTo(worst) > 0 ? took : worst;
            }
            slowest.add(worst);
            return null;
        }));

        await().atMost(Duration.ofSeconds(60)).until(() -> acked.get() >= 60);
        InstanceSpec leader = findLeader();
        assertThat(cluster.killServer(leader)).isTrue();
        long ackedAtKill = acked.get();
        await().atMost(Duration.ofSeconds(90)).until(() -> acked.get() >= ackedAtKill + 60);
        stop.set(true);
        for (Future<?> f : tasks) {
            f.get(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS); // a worker that threw anything else fails here
        }
        pool.shutdown();

        for (int w = 0; w < writers; w++) {
            Optional<byte[]> v = hybris.get("ha", "key-" + w);
            assertThat(v).as("key-%d", w).isPresent();
            long stored = Long.parseLong(new String(v.get(), StandardCharsets.UTF_8));
            assertThat(stored).as("key-%d: last acknowledged %d, last attempted %d", w, lastAcked[w],
                    lastAttempted[w]).isBetween(lastAcked[w], lastAttempted[w]);
        }
        assertThat(slowest).hasSize(writers + 1)
                .allSatisfy(d -> assertThat(d).isLessThan(DEADLINE.plusSeconds(3)));
        for (Throwable t : failures) {
            assertThat(t.getMessage()).isNotBlank();
        }
    }

    /** The leader, found with the {@code srvr} four-letter command (enabled by default). */
    private InstanceSpec findLeader() throws IOException {
        for (TestingZooKeeperServer server : cluster.getServers()) {
            InstanceSpec spec = server.getInstanceSpec();
            if (srvr(spec.getPort()).contains("Mode: leader")) {
                return spec;
            }
        }
        throw new AssertionError("no leader found among " + cluster.getInstances());
    }

    private static String srvr(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
