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
import io.hybris.testkit.BlockedCall;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

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
    private static final Duration LIMIT = READ_TIMEOUT.plusSeconds(5);
    /** The commit sends its /v1/txn request on its own thread (the call runs there: its bound is below 60 s). */
    private static final Predicate<Thread> IN_TRANSACTION = BlockedCall.inMethod(ConsulTransport.class, "execute");

    private static FreezableProxy proxy() throws Exception {
        String[] hostPort = CONSUL.address().split(":");
        return new FreezableProxy(hostPort[0], Integer.parseInt(hostPort[1]));
    }

    @Test
    void hybrisCloseEndsAPutWhoseCommitWaitsOnAHungAgentWithClientClosedException() throws Exception {
        try (FreezableProxy proxy = proxy()) {
            Hybris h = open(proxy, "close-");
            try {
                h.put("box", "k", bytes("v1"));
                VersionInfo v1 = h.describe("box", "k").orElseThrow(); // a read: ifMatch below makes no read of its own
                proxy.freeze();
                BlockedCall put = BlockedCall.start("close-test-writer",
                        () -> h.put("box", "k", bytes("v2"), PutOptions.ifMatch(v1.version())), IN_TRANSACTION);

                BlockedCall.Ended ended = put.endBy(h::close, LIMIT);

                assertThat(ended.ended()).as("the put ended").isTrue();
                assertThat(ended.thrown()).isInstanceOf(ClientClosedException.class);
                assertThat(ended.took()).as("ended by close, not by the request's read-timeout").isLessThan(PROMPT);
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
                BlockedCall update = BlockedCall.start("close-test-writer",
                        () -> store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1)), IN_TRANSACTION);

                BlockedCall.Ended ended = update.endBy(store::close, LIMIT);

                assertThat(ended.ended()).as("the update ended").isTrue();
                assertThat(ended.thrown()).isInstanceOf(MetadataStoreException.class).hasMessageContaining("closed");
                assertThat(ended.took()).as("ended by close, not by the request's read-timeout").isLessThan(PROMPT);
            } finally {
                proxy.thaw();
                store.close();
            }
        }
    }

    @Test
    void anInterruptEndsAGetWhoseReadWaitsOnAHungAgent() throws Exception {
        try (FreezableProxy proxy = proxy()) {
            Hybris h = open(proxy, "interrupt-");
            try {
                h.put("box", "k", bytes("v1"));
                proxy.freeze();
                BlockedCall get = BlockedCall.start("interrupt-test-reader", () -> h.get("box", "k"),
                        BlockedCall.inClass("okhttp3."));

                BlockedCall.Ended ended = get.interrupt(LIMIT);

                assertThat(ended.ended()).as("the get ended").isTrue();
                assertThat(ended.thrown()).isInstanceOf(io.hybris.CallInterruptedException.class);
                assertThat(ended.interrupted()).as("interrupt flag kept").isTrue();
                assertThat(ended.took()).as("ended by the interrupt, not by the request's read-timeout")
                        .isLessThan(PROMPT);
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
            BlockedCall update = BlockedCall.start("interrupt-test-writer",
                    () -> store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1)), IN_TRANSACTION);

            BlockedCall.Ended ended = update.interrupt(LIMIT);
            proxy.thaw();

            assertThat(ended.ended()).as("the update ended").isTrue();
            assertThat(ended.thrown()).isInstanceOf(io.hybris.MetadataUnavailableException.class)
                    .hasMessageContaining("interrupted").hasMessageContaining("outcome is unknown");
            assertThat(ended.interrupted()).as("interrupt flag kept").isTrue();
            assertThat(ended.took()).as("ended by the interrupt, not by the request's read-timeout")
                    .isLessThan(PROMPT);
        }
    }

    /** A client on the agent behind {@code proxy}, with a read-timeout far longer than the test waits. */
    private static Hybris open(FreezableProxy proxy, String prefix) {
        return Hybris.open(Hybris.builder().f(1).deadline(Duration.ofSeconds(60))
                .metadataStore("consul", Map.of("address", proxy.address(),
                        "key-prefix", CONSUL.uniquePrefix(prefix), "read-timeout", "20s"))
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .probeInterval(Duration.ZERO).build());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
