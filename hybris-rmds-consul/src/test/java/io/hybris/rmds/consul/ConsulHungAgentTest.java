/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.MetadataStoreException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Calls that wait on an agent that stopped answering without closing its connections (a {@link FreezableProxy} in
 * front of the agent) end at once when the client is closed or the caller interrupted, not at the request's
 * read-timeout: a thread blocked reading a socket notices neither by itself, so the store must cancel the request.
 */
class ConsulHungAgentTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    /** Far longer than the test waits for close to take effect: a call that ends must have been ended by close. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration PROMPT = Duration.ofSeconds(3);

    private static FreezableProxy proxy() throws Exception {
        String[] hostPort = CONSUL.address().split(":");
        return new FreezableProxy(hostPort[0], Integer.parseInt(hostPort[1]));
    }

    @Test
    void hybrisCloseEndsAPutWhoseCommitWaitsOnAHungAgentWithClientClosedException() throws Exception {
        try (FreezableProxy proxy = proxy()) {
            Hybris h = Hybris.open(Hybris.builder().f(1).deadline(Duration.ofSeconds(60))
                    .metadataStore("consul", Map.of("address", proxy.address(),
                            "key-prefix", CONSUL.uniquePrefix("close-"), "read-timeout", "20s"))
                    .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                    .probeInterval(Duration.ZERO).build());
            try {
                h.put("box", "k", bytes("v1"));
                VersionInfo v1 = h.describe("box", "k").orElseThrow(); // a read: ifMatch below makes no read of its own
                proxy.freeze();
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Thread writer = new Thread(() -> {
                    try {
                        h.put("box", "k", bytes("v2"), PutOptions.ifMatch(v1.version()));
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                }, "close-test-writer");
                writer.start();
                awaitInTransaction(writer);

                long t0 = System.nanoTime();
                h.close();
                writer.join(READ_TIMEOUT.toMillis() + 5000);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);

                assertThat(writer.isAlive()).as("the put ended").isFalse();
                assertThat(thrown.get()).isInstanceOf(ClientClosedException.class);
                assertThat(took).as("ended by close, not by the request's read-timeout").isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                h.close();
            }
        }
    }

    @Test
    void storeCloseEndsAConditionalUpdateWaitingOnAHungAgent() throws Exception {
        try (FreezableProxy proxy = proxy()) {
            ConsulMetadataStore store = ConsulMetadataStore.builder().address(proxy.address())
                    .keyPrefix(CONSUL.uniquePrefix("close-")).readTimeout(READ_TIMEOUT).build();
            try {
                MetadataKey k = new MetadataKey("box", "k");
                store.conditionalUpdate(new MetadataUpdate(k, bytes("v1"), MetadataVersion.ABSENT));
                MetadataVersion v1 = store.read(k).orElseThrow().version();
                proxy.freeze();
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Thread writer = new Thread(() -> {
                    try {
                        store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1));
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                }, "close-test-writer");
                writer.start();
                awaitInTransaction(writer);

                long t0 = System.nanoTime();
                store.close();
                writer.join(READ_TIMEOUT.toMillis() + 5000);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);

                assertThat(writer.isAlive()).as("the update ended").isFalse();
                assertThat(thrown.get()).isInstanceOf(MetadataStoreException.class).hasMessageContaining("closed");
                assertThat(took).as("ended by close, not by the request's read-timeout").isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                store.close();
            }
        }
    }

    @Test
    void anInterruptEndsAGetWhoseReadWaitsOnAHungAgent() throws Exception {
        try (FreezableProxy proxy = proxy()) {
            Hybris h = Hybris.open(Hybris.builder().f(1).deadline(Duration.ofSeconds(60))
                    .metadataStore("consul", Map.of("address", proxy.address(),
                            "key-prefix", CONSUL.uniquePrefix("interrupt-"), "read-timeout", "20s"))
                    .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                    .probeInterval(Duration.ZERO).build());
            try {
                h.put("box", "k", bytes("v1"));
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
                }, "interrupt-test-reader");
                reader.start();
                await("the get waits in its HTTP request").atMost(Duration.ofSeconds(10))
                        .until(() -> Arrays.stream(reader.getStackTrace()).anyMatch(f -> f.getClassName()
                                .startsWith("okhttp3.")));

                long t0 = System.nanoTime();
                reader.interrupt();
                reader.join(READ_TIMEOUT.toMillis() + 5000);
                Duration took = Duration.ofNanos(System.nanoTime() - t0);

                assertThat(reader.isAlive()).as("the get ended").isFalse();
                assertThat(thrown.get()).isInstanceOf(io.hybris.CallInterruptedException.class);
                assertThat(flag.get()).as("interrupt flag kept").isTrue();
                assertThat(took).as("ended by the interrupt, not by the request's read-timeout").isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                h.close();
            }
        }
    }

    @Test
    void anInterruptEndsAConditionalUpdateWaitingOnAHungAgentWithAnUnknownOutcome() throws Exception {
        try (FreezableProxy proxy = proxy();
             ConsulMetadataStore store = ConsulMetadataStore.builder().address(proxy.address())
                     .keyPrefix(CONSUL.uniquePrefix("interrupt-")).readTimeout(READ_TIMEOUT).build()) {
            MetadataKey k = new MetadataKey("box", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v1"), MetadataVersion.ABSENT));
            MetadataVersion v1 = store.read(k).orElseThrow().version();
            proxy.freeze();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> flag = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1));
                } catch (Throwable t) {
                    thrown.set(t);
                    flag.set(Thread.currentThread().isInterrupted());
                }
            }, "interrupt-test-writer");
            writer.start();
            awaitInTransaction(writer);

            long t0 = System.nanoTime();
            writer.interrupt();
            writer.join(READ_TIMEOUT.toMillis() + 5000);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            proxy.thaw();

            assertThat(writer.isAlive()).as("the update ended").isFalse();
            assertThat(thrown.get()).isInstanceOf(io.hybris.MetadataUnavailableException.class)
                    .hasMessageContaining("interrupted").hasMessageContaining("outcome is unknown");
            assertThat(flag.get()).as("interrupt flag kept").isTrue();
            assertThat(took).as("ended by the interrupt, not by the request's read-timeout").isLessThan(PROMPT);
        }
    }

    /** Waits until {@code t} sends a transaction on its own thread (the call runs there: its bound is below 60 s). */
    private static void awaitInTransaction(Thread t) {
        await("the commit waits in its /v1/txn request").atMost(Duration.ofSeconds(10))
                .until(() -> Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName()
                        .equals(ConsulTransport.class.getName()) && f.getMethodName().equals("execute")));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
