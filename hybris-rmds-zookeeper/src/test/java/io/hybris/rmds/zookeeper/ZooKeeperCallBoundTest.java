/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionedValue;
import io.hybris.testkit.FreezableProxy;
import org.apache.curator.test.TestingServer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * {@link ZooKeeperMetadataStore#callTimeBound()} holds when the server stops answering without closing its
 * connections (a {@link FreezableProxy} in front of an in-process server): each call fails with
 * {@link MetadataUnavailableException} within the bound, well before ZooKeeper's own ping timeout (2/3 of the 30 s
 * session) would notice, because each request times out after {@code request-timeout}. And since the bound is
 * below the deadline, Hybris makes the calls on the caller's thread, where an interrupt or {@link Hybris#close()}
 * still ends them as documented.
 */
class ZooKeeperCallBoundTest {
    /** ZooKeeper notices a silent server after 2/3 of it (6 s): later than the bound, so the bound is not its doing. */
    private static final Duration SESSION = Duration.ofSeconds(9);
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final Duration OPERATION = Duration.ofSeconds(1);
    private static final Duration REQUEST = Duration.ofSeconds(1);
    private static final Duration BOUND = Duration.ofSeconds(4); // the three timeouts + 1 s
    private static final MetadataKey KEY = new MetadataKey("bound", "k");
    private static final AtomicInteger ROOTS = new AtomicInteger();

    private TestingServer server;
    private FreezableProxy proxy;

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
        proxy = new FreezableProxy("127.0.0.1", server.getPort());
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        server.close();
    }

    private ZooKeeperMetadataStore.Builder builder() {
        return ZooKeeperMetadataStore.builder().connect(proxy.address()).root("/bound-" + ROOTS.incrementAndGet())
                .sessionTimeout(SESSION).connectTimeout(CONNECT).operationTimeout(OPERATION)
                .requestTimeout(REQUEST);
    }

    @ParameterizedTest
    @EnumSource(ZooKeeperMetadataStore.ReadMode.class)
    void everyCallFailsWithinTheBoundWhenTheServerStopsAnswering(ZooKeeperMetadataStore.ReadMode mode) {
        try (ZooKeeperMetadataStore store = builder().readMode(mode).build()) {
            store.conditionalUpdate(new MetadataUpdate(KEY, bytes("v1"), MetadataVersion.ABSENT));
            VersionedValue v1 = store.read(KEY).orElseThrow();
            assertThat(store.callTimeBound()).hasValue(BOUND);

            proxy.freeze();
            failsWithinTheBound(() -> store.read(KEY));
            failsWithinTheBound(() -> store.readAndWatch(KEY, () -> { }));
            failsWithinTheBound(() -> store.conditionalUpdate(new MetadataUpdate(KEY, bytes("v2"), v1.version())));
            failsWithinTheBound(() -> store.conditionalUpdateAll(java.util.List.of(
                    new MetadataUpdate(new MetadataKey("bound", "other"), bytes("o"), MetadataVersion.ABSENT))));

            proxy.thaw();
            VersionedValue after = await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                    .until(() -> store.read(KEY).orElse(null), v -> v != null);
            assertThat(new String(after.value(), StandardCharsets.UTF_8)).as("v2's outcome was unknown")
                    .isIn("v1", "v2");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void hybrisCallsTheStoreOnTheCallersThreadAndAnInterruptEndsTheCall() throws Exception {
        try (ZooKeeperMetadataStore store = builder().build();
             Hybris h = Hybris.open(Hybris.builder().f(1).metadataStore(store).deadline(Duration.ofSeconds(30))
                     .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                     .probeInterval(Duration.ZERO).build())) {
            h.put("box", "k", bytes("v"));
            proxy.freeze();

            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> flag = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    h.get("box", "k");
                } catch (Throwable t) {
                    thrown.set(t);
                    flag.set(Thread.currentThread().isInterrupted());
                }
            }, "bound-test-reader");
            reader.start();
            awaitInZooKeeper(reader);
            long t0 = System.nanoTime();
            reader.interrupt();
            reader.join(BOUND.toMillis());

            assertThat(reader.isAlive()).as("the interrupted get returned").isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(REQUEST);
            assertThat(thrown.get()).isInstanceOf(CallInterruptedException.class);
            assertThat(flag.get()).as("interrupt flag kept").isTrue();
        }
    }

    @Test
    void closeEndsACallInFlightOnTheCallersThreadWithClientClosedException() throws Exception {
        Hybris h = Hybris.open(Hybris.builder().f(1).deadline(Duration.ofSeconds(30))
                .metadataStore("zookeeper", Map.of("connect", proxy.address(), "root", "/bound-close",
                        "connect-timeout", "1s", "operation-timeout", "1s", "request-timeout", "1s"))
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .probeInterval(Duration.ZERO).build());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            h.put("box", "k", bytes("v"));
            proxy.freeze();
            Thread writer = new Thread(() -> {
                try {
                    h.put("box", "k", bytes("v2"));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "bound-test-writer");
            writer.start();
            awaitInZooKeeper(writer);
            long t0 = System.nanoTime();
            h.close();
            writer.join(BOUND.toMillis());

            assertThat(writer.isAlive()).as("the put ended").isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(BOUND);
            assertThat(thrown.get()).isInstanceOf(ClientClosedException.class);
        } finally {
            h.close();
        }
    }

    /** Waits until {@code t} is inside a ZooKeeper or Curator request: the call runs on the caller's thread. */
    private static void awaitInZooKeeper(Thread t) {
        await("the call waits in ZooKeeper on the caller's own thread").atMost(Duration.ofSeconds(10))
                .until(() -> Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName()
                        .startsWith("org.apache.zookeeper.") || f.getClassName().startsWith("org.apache.curator.")));
    }

    private static void failsWithinTheBound(ThrowingCallable call) {
        long t0 = System.nanoTime();
        Throwable thrown = catchThrowable(call);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(thrown).isInstanceOf(MetadataUnavailableException.class);
        assertThat(took).as("failed within the reported bound").isLessThan(BOUND);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
