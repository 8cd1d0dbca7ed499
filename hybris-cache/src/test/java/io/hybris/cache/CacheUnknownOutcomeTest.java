/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.ReadOptions;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.ForwardingMetadataStore;
import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A write whose outcome is unknown (its commit landed, then the answer was lost) may have become the current
 * version: the bounded-staleness-by-versions entry it would have refreshed must not go on being served as if it
 * were one of the η newest versions.
 */
@Timeout(60)
class CacheUnknownOutcomeTest {
    private CacheFixture fx;
    private RawMemcached raw;
    /** When set, the next commit lands and then fails as a lost connection would make it. */
    private final AtomicBoolean loseNextAnswer = new AtomicBoolean();
    /** When set, the next commit lands, then interrupts this thread (waiting for it) and holds its answer back. */
    private volatile Thread interruptAfterNextUpdate;
    private final CountDownLatch answer = new CountDownLatch(1);

    @BeforeEach
    void setUp() throws Exception {
        fx = new CacheFixture();
        raw = new RawMemcached(TestEnvironment.require().memcachedAddress());
    }

    @AfterEach
    void tearDown() throws Exception {
        answer.countDown();
        if (fx != null) {
            fx.close();
        }
        if (raw != null) {
            raw.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Optional<byte[]> v) {
        return v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse("<absent>");
    }

    private Hybris open(String clientId, int eta) {
        ForwardingMetadataStore lossy = new ForwardingMetadataStore(fx.metadata) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                super.conditionalUpdate(update);
                if (loseNextAnswer.compareAndSet(true, false)) {
                    throw new IllegalStateException("connection lost after the update was sent");
                }
                Thread caller = interruptAfterNextUpdate;
                if (caller != null) {
                    interruptAfterNextUpdate = null;
                    caller.interrupt();
                    try {
                        answer.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
                super.conditionalUpdateAll(updates);
                if (loseNextAnswer.compareAndSet(true, false)) {
                    throw new IllegalStateException("connection lost after the transaction was sent");
                }
            }

            @Override
            public void close() {
                // the fixture's store is shared
            }
        };
        return fx.open(clientId, fx.cache().stalenessVersions(eta).build(), b -> b.metadataStore(lossy));
    }

    @Test
    void aPutWithAnUnknownOutcomeDoesNotLeaveAnOlderVersionServedAsTheNewest() throws Exception {
        Hybris w = open("uo-w", 1); // η = 1: a bounded-versions read returns the newest version
        String plain = fx.prefix + "idx/k#~versions";
        w.put("idx", "k", bytes("v1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain)
                .map(e -> CachePoliciesTest.indexOf(e, bytes("v1")) >= 0).orElse(false));

        loseNextAnswer.set(true);
        assertThatThrownBy(() -> w.put("idx", "k", bytes("v2"))).isInstanceOf(HybrisException.class);
        // it landed (read by a client that does not maintain η entries, so this read refreshes nothing)
        assertThat(text(fx.open("uo-plain", fx.cache().build()).get("idx", "k"))).isEqualTo("v2");
        Hybris r = open("uo-r", 1);
        assertThat(text(r.get("idx", "k", ReadOptions.boundedStalenessVersions()))).isEqualTo("v2");
    }

    @Test
    void aDeleteWithAnUnknownOutcomeDoesNotLeaveTheDeletedValueServed() throws Exception {
        Hybris w = open("ud-w", 1);
        String plain = fx.prefix + "idx/d#~versions";
        w.put("idx", "d", bytes("v1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain)
                .map(e -> CachePoliciesTest.indexOf(e, bytes("v1")) >= 0).orElse(false));

        loseNextAnswer.set(true);
        assertThatThrownBy(() -> w.delete("idx", "d")).isInstanceOf(HybrisException.class);
        Hybris r = open("ud-r", 1);
        assertThat(text(r.get("idx", "d", ReadOptions.boundedStalenessVersions()))).isEqualTo("<absent>");
    }

    @Test
    void aTputWithAnUnknownOutcomeDoesNotLeaveAnOlderVersionServedAsTheNewest() throws Exception {
        Hybris w = open("ut-w", 1);
        w.put("idx", "a", bytes("a1"));
        w.put("idx", "b", bytes("b1"));
        for (String k : new String[] {"a", "b"}) {
            String plain = fx.prefix + "idx/" + k + "#~versions";
            await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain)
                    .map(e -> CachePoliciesTest.indexOf(e, bytes(k + "1")) >= 0).orElse(false));
        }

        loseNextAnswer.set(true);
        assertThatThrownBy(() -> w.tput("idx", Map.of("a", bytes("a2"), "b", bytes("b2"))))
                .isInstanceOf(HybrisException.class);
        Hybris r = open("ut-r", 1);
        assertThat(text(r.get("idx", "a", ReadOptions.boundedStalenessVersions()))).isEqualTo("a2");
        assertThat(text(r.get("idx", "b", ReadOptions.boundedStalenessVersions()))).isEqualTo("b2");
    }

    @Test
    void anInterruptedPutWhoseUpdateLandedDoesNotLeaveAnOlderVersionServedAsTheNewest() throws Exception {
        Hybris w = open("ui-w", 1);
        String plain = fx.prefix + "idx/i#~versions";
        w.put("idx", "i", bytes("v1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.get(plain)
                .map(e -> CachePoliciesTest.indexOf(e, bytes("v1")) >= 0).orElse(false));

        interruptAfterNextUpdate = Thread.currentThread();
        try {
            assertThatThrownBy(() -> w.put("idx", "i", bytes("v2"))).isInstanceOf(HybrisException.class)
                    .hasMessageContaining("interrupted");
        } finally {
            Thread.interrupted(); // the put kept the flag, as it should
            answer.countDown();
        }
        Hybris r = open("ui-r", 1);
        assertThat(text(r.get("idx", "i", ReadOptions.boundedStalenessVersions()))).isEqualTo("v2");
    }
}
