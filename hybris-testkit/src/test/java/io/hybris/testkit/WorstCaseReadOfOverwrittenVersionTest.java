/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worst-case GET whose version is overwritten while its requests for that version still run: the next round reads
 * the new version, and the old version's requests (verified against the old hash) must not answer for it. Were they
 * kept (a round skips a cloud whose request still runs), their answer, the overwritten value, would be returned after
 * the overwrite was acknowledged: a stale read.
 *
 * <p>Every step waits for an event, not a timer: the reader's clouds hold every GET of the first version until the
 * test releases them, which it does once the reader has restarted for the new version; a GET of the new version is
 * never held, so the correct read returns it whatever the timing.
 */
class WorstCaseReadOfOverwrittenVersionTest {
    private static final byte[] V1 = "the first value, overwritten while read".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = "the second value, the only one to return".getBytes(StandardCharsets.UTF_8);

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final InMemoryCloudStore raw0 = new InMemoryCloudStore("c0");
    private final InMemoryCloudStore raw1 = new InMemoryCloudStore("c1");
    private final InMemoryCloudStore raw2 = new InMemoryCloudStore("c2");
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final AtomicReference<String> heldObject = new AtomicReference<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicBoolean worstCaseStarted = new AtomicBoolean();
    private final AtomicInteger restarts = new AtomicInteger();
    private final HeldGets held0 = new HeldGets(raw0);
    private final HeldGets held1 = new HeldGets(raw1);
    private Hybris reading;
    private Hybris writing;

    @AfterEach
    void close() {
        release.countDown();
        reader.shutdownNow();
        if (reading != null) {
            reading.close();
        }
        if (writing != null) {
            writing.close();
        }
    }

    /** The reader's view of a cloud: GETs of the held object wait for the release; counts those of the worst case. */
    private final class HeldGets extends ForwardingCloudStore {
        final AtomicInteger worstCaseRequests = new AtomicInteger();

        HeldGets(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (objectKey.equals(heldObject.get())) {
                if (worstCaseStarted.get()) {
                    worstCaseRequests.incrementAndGet();
                }
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientCloudException(id(), "GET cancelled", e);
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }

    /** c2 for the writer: refuses puts, so both versions land on c0 and c1 only. */
    private final CloudStore refusing2 = new ForwardingCloudStore(raw2) {
        @Override
        public void put(String objectKey, byte[] value) {
            throw new TransientCloudException("c2", "put refused by the test", null);
        }
    };

    private static HybrisConfig.Builder config(InMemoryMetadataStore metadata, String clientId) {
        return HybrisConfig.builder().f(1).metadataStore(metadata).clientId(clientId)
                .deadline(Duration.ofSeconds(30)).timerMin(Duration.ofMillis(300))
                .timerInitial(Duration.ofMillis(300)).probeInterval(Duration.ZERO).gcEnabled(false);
    }

    @Test
    void theOverwrittenVersionsRequestsDoNotAnswerForTheNewVersion() throws Exception {
        HybrisListener events = new HybrisListener() {
            @Override
            public void worstCaseGet(String container, String key) {
                worstCaseStarted.set(true);
            }

            @Override
            public void getRestarted(String container, String key) {
                restarts.incrementAndGet();
            }
        };
        reading = Hybris.open(config(metadata, "reader").cloud(held0).cloud(held1).cloud(raw2).listener(events)
                .build());
        writing = Hybris.open(config(metadata, "writer").cloud(raw0).cloud(raw1).cloud(refusing2).build());
        assertThat(writing.put("box", "k", V1).clouds()).containsExactlyInAnyOrder("c0", "c1");
        heldObject.set(raw0.list("").get(0).key());

        CompletableFuture<Optional<byte[]>> got =
                CompletableFuture.supplyAsync(() -> reading.get("box", "k"), reader);
        // the worst case's round asks both listed clouds for the first version, and both requests are held
        Awaitility.await().atMost(Duration.ofSeconds(20))
                .until(() -> held0.worstCaseRequests.get() > 0 && held1.worstCaseRequests.get() > 0);
        assertThat(restarts.get()).isZero();

        assertThat(writing.put("box", "k", V2).clouds()).containsExactlyInAnyOrder("c0", "c1");
        // the reader saw the metadata change and starts a round for the new version; only then may the first
        // version's requests answer
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> restarts.get() > 0);
        release.countDown();

        assertThat(got.get(30, TimeUnit.SECONDS)).hasValueSatisfying(v -> assertThat(v).isEqualTo(V2));
    }
}
