/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.spi.TransientCloudException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.ForwardingCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An erasure-coded value's worst-case GET whose metadata changes under it with the same version (a scrub repair or
 * migration moving a fragment to another cloud) while a request to the cloud that lost its fragment is still running
 * on the worst case's race. Its answer used to be taken (or its failure retried) for a cloud the metadata no longer
 * lists, and the GET failed with a NullPointerException; it is now left out of the round.
 */
class WorstCaseReadDuringMoveTest {
    private static final String C = "hunt";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<Hybris> clients = new ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    /** A cloud whose GETs, from threads other than {@link #exempt}, can hang or fail; the operator's pass. */
    static final class Flaky extends ForwardingCloudStore {
        volatile Thread exempt;
        volatile boolean fail;
        volatile CountDownLatch hang; // null: no hang
        final AtomicInteger hung = new AtomicInteger();

        Flaky(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (Thread.currentThread() != exempt && objectKey.contains("/" + C + "/")) {
                CountDownLatch gate = hang;
                if (gate != null) {
                    hung.incrementAndGet();
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new TransientCloudException(id(), "interrupted", e);
                    }
                }
                if (fail) {
                    throw new TransientCloudException(id(), "down for readers");
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }

    private Hybris open(List<Flaky> clouds, HybrisListener listener) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                .erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .timerInitial(Duration.ofMillis(200)).timerMin(Duration.ofMillis(100))
                .reads(ReadSettings.builder().hedge(false).speculate(false).build())
                .deadline(Duration.ofSeconds(30)).probeInterval(Duration.ZERO);
        if (listener != null) {
            b.listener(listener);
        }
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    @Test
    void aFragmentMovedDuringTheWorstCaseGetDoesNotBreakTheRead() throws Exception {
        List<Flaky> clouds = new ArrayList<>();
        Map<String, Flaky> byId = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            Flaky c = new Flaky(new InMemoryCloudStore("c" + i));
            c.exempt = Thread.currentThread();
            clouds.add(c);
            byId.put(c.id(), c);
        }
        Hybris writer = open(clouds, null);
        byte[] v = new byte[10_000];
        new Random(1).nextBytes(v);
        writer.put(C, "k", v);
        List<String> holders = writer.describe(C, "k").orElseThrow().clouds(); // chunk order
        Flaky x = byId.get(holders.get(0));
        Flaky y = byId.get(holders.get(1));
        Flaky spare = clouds.stream().filter(c -> !holders.contains(c.id())).findFirst().orElseThrow();

        CountDownLatch worstCase = new CountDownLatch(1);
        CountDownLatch restarted = new CountDownLatch(1);
        Hybris reader = open(clouds, new HybrisListener() {
            @Override
            public void worstCaseGet(String container, String key) {
                worstCase.countDown();
            }

            @Override
            public void getRestarted(String container, String key) {
                restarted.countDown();
            }
        });
        CountDownLatch release = new CountDownLatch(1);
        x.hang = release;    // x: a request that does not answer (yet)
        y.fail = true;       // y: fails for readers
        spare.fail = true;   // the spare too, so the moved fragment is not available to the reader at once
        CompletableFuture<Optional<byte[]>> get = CompletableFuture.supplyAsync(() -> reader.get(C, "k"));
        try {
            assertThat(worstCase.await(20, TimeUnit.SECONDS)).isTrue();
            int before = x.hung.get();
            await().atMost(Duration.ofSeconds(20)).until(() -> x.hung.get() > before || x.hung.get() >= 2);

            // the operator migrates x's fragment to the spare: same version, x no longer listed
            ScrubReport moved = writer.migrate(x.id(), spare.id(), ScrubOptions.listing());
            assertThat(writer.describe(C, "k").orElseThrow().clouds()).doesNotContain(x.id()).contains(spare.id());
            assertThat(moved).isNotNull();
            assertThat(restarted.await(20, TimeUnit.SECONDS)).isTrue();

            // x's old request now answers (with the fragment it held), then every cloud heals
            release.countDown();
            y.fail = false;
            spare.fail = false;
            x.hang = null;
            Optional<byte[]> got;
            try {
                got = get.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the GET failed instead of reading the value: " + e.getCause(), e.getCause());
            }
            assertThat(got).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
        } finally {
            release.countDown();
            x.hang = null;
        }
    }
}
