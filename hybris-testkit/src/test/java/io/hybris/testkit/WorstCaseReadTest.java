/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worst-case GET (paper §3.5) with the only good copy on a cloud slower than one of its rounds (5 s): the
 * round ends, the metadata is re-read, and the request keeps running, so the GET returns that copy. Until
 * 2026-11-29 every round cancelled its requests and asked again, so such a cloud was never heard and the GET
 * failed at its deadline (found through a CI failure on a loaded host, where the cloud with the good copy was never
 * heard while the other copy was corrupt). And a request that hangs is not kept for ever: after three rounds it is
 * cancelled and asked again, within the deadline. Asserted by the requests each cloud received, not by timings.
 */
class WorstCaseReadTest {
    private static final byte[] VALUE = "the only good copy is on the slow cloud".getBytes(StandardCharsets.UTF_8);

    private final CallLog contacts = new CallLog("hybris/box/");
    private final ByzantineCloudStore corrupt0 = ByzantineCloudStore.of(new InMemoryCloudStore("c0"));
    /** Answers GETs 6 s late: longer than a worst-case round. */
    private final SlowCloudStore slow1 = SlowCloudStore.ofGets(new InMemoryCloudStore("c1"), Duration.ofSeconds(6));
    private Hybris hybris;

    @AfterEach
    void close() {
        if (hybris != null) {
            hybris.close();
        }
    }

    @Test
    void aCloudSlowerThanAWorstCaseRoundIsWaitedForNotAskedAgain() {
        CloudStore c2 = SlowCloudStore.of(new InMemoryCloudStore("c2"), Duration.ofMillis(40)); // holds no copy
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(contacts.wrap(corrupt0)).cloud(contacts.wrap(slow1)).cloud(contacts.wrap(c2))
                .deadline(Duration.ofSeconds(30)).timerMin(Duration.ofMillis(300))
                .timerInitial(Duration.ofMillis(300)).probeInterval(Duration.ZERO).gcEnabled(false).build());
        assertThat(hybris.put("box", "k", VALUE).clouds()).containsExactlyInAnyOrder("c0", "c1");
        contacts.drain(c -> "");
        corrupt0.mode(ByzantineCloudStore.Mode.CORRUPT);

        assertThat(hybris.get("box", "k")).hasValue(VALUE);

        // the common case asks c0 (corrupt) then c1, whose timer (300 ms) expires; the worst case asks both again:
        // c0 with backoff while it fails, c1 once, its answer arriving after the first round ended
        var gets = contacts.drain(c -> c.cloudId() + " " + c.op());
        assertThat(gets).filteredOn(g -> g.startsWith("c1")).containsExactly("c1 GET", "c1 GET");
        assertThat(gets).filteredOn(g -> g.startsWith("c2")).isEmpty();
        assertThat(gets).filteredOn(g -> g.startsWith("c0")).hasSizeGreaterThan(5); // retried through round one
    }

    /** A cloud whose first GETs never answer until cancelled (a connection that hangs); later ones answer. */
    private static final class HangingFirstGets extends ForwardingCloudStore {
        private final AtomicInteger left;

        HangingFirstGets(CloudStore delegate, int hanging) {
            super(delegate);
            this.left = new AtomicInteger(hanging);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (left.getAndDecrement() > 0) {
                try {
                    new CountDownLatch(1).await(); // until the race cancels the request
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientCloudException("c1", "GET cancelled", e);
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }

    @Test
    void aRequestThatHangsIsAskedAgainAfterAFewRoundsWithinTheDeadline() {
        // c1's first two GETs hang: the common case's, which the worst case's start cancels, and the worst case's first
        HangingFirstGets hanging1 = new HangingFirstGets(new InMemoryCloudStore("c1"), 2);
        CloudStore c2 = SlowCloudStore.of(new InMemoryCloudStore("c2"), Duration.ofMillis(40)); // holds no copy
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(contacts.wrap(corrupt0)).cloud(contacts.wrap(hanging1)).cloud(contacts.wrap(c2))
                .deadline(Duration.ofSeconds(40)).timerMin(Duration.ofMillis(300))
                .timerInitial(Duration.ofMillis(300)).probeInterval(Duration.ZERO).gcEnabled(false).build());
        hanging1.left.set(0);
        assertThat(hybris.put("box", "k", VALUE).clouds()).containsExactlyInAnyOrder("c0", "c1");
        hanging1.left.set(2);
        contacts.drain(c -> "");
        corrupt0.mode(ByzantineCloudStore.Mode.CORRUPT);

        assertThat(hybris.get("box", "k")).hasValue(VALUE);

        // the worst case's request to c1 is kept for three rounds, then cancelled and asked again, which answers
        var gets = contacts.drain(c -> c.cloudId() + " " + c.op());
        assertThat(gets).filteredOn(g -> g.startsWith("c1")).containsExactly("c1 GET", "c1 GET", "c1 GET");
    }
}
