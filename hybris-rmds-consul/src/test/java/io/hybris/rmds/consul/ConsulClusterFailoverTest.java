package io.hybris.rmds.consul;

import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
 * A 3-server Consul cluster on loopback loses its leader (SIGKILL) in the middle of a write/read workload: no
 * acknowledged write may be lost, and every call in flight either completes or fails with a clear exception
 * before its deadline. The store talks to a follower's HTTP API, which forwards to whichever server leads.
 */
class ConsulClusterFailoverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private ConsulTestAgent.Cluster cluster;
    private ConsulMetadataStore store;
    private Hybris hybris;

    @AfterEach
    void tearDown() {
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
        cluster = ConsulTestAgent.cluster(3);
        ConsulTestAgent leader = cluster.leader();
        ConsulTestAgent follower = cluster.servers().stream().filter(s -> s != leader).findFirst().orElseThrow();
        store = ConsulMetadataStore.builder()
                .address(follower.address())
                .keyPrefix("failover")
                .connectTimeout(Duration.ofSeconds(2))
                .readTimeout(Duration.ofSeconds(10))
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
        assertThat(cluster.leader()).as("the leader has not changed yet").isSameAs(leader);
        leader.kill();
        long ackedAtKill = acked.get();
        await().atMost(Duration.ofSeconds(90)).until(() -> acked.get() >= ackedAtKill + 60);
        ConsulTestAgent newLeader = cluster.awaitLeader(Duration.ofSeconds(30));
        stop.set(true);
        for (Future<?> f : tasks) {
            f.get(DEADLINE.toSeconds() * 2, TimeUnit.SECONDS); // a worker that threw anything else fails here
        }
        pool.shutdown();

        assertThat(newLeader).isNotSameAs(leader);
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
        System.out.printf("failover: %d acknowledged writes, %d failed calls %s%n", acked.get(), failures.size(),
                failureTypes);
    }
}
