/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.support.AbortSignal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Speculative reads ({@code hybris.get.speculate}, docs/protocol.md "Speculative reads"): a GET of a key this
 * client read or wrote starts reading the version it saw last while its metadata read runs. Asserted by what the
 * clouds received while the metadata read was held and by what the GET returned, never by timings. Both clouds are
 * in memory behind a decorator that, like a real cloud, bounds no call; the paper's timer is 30 s, so no request
 * here is a timer's doing.
 */
class SpeculativeReadTest {
    private static final byte[] V1 = "version one".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = "version two, a little longer".getBytes(StandardCharsets.UTF_8);

    /** Every PUT and GET of a value object, in arrival order. */
    private final CallLog log = new CallLog("hybris/box/");
    private final InMemoryCloudStore mem0 = new InMemoryCloudStore("c0");
    private final InMemoryCloudStore mem1 = new InMemoryCloudStore("c1");
    private final SlowCloudStore slow0 = SlowCloudStore.ofGets(mem0, Duration.ofHours(1));
    private final SlowCloudStore slow1 = SlowCloudStore.ofGets(mem1, Duration.ofHours(1));
    private final CloudStore c0 = log.wrap(new EndsAtAbort(slow0));
    private final CloudStore c1 = log.wrap(new EndsAtAbort(slow1));
    private final HeldReads metadata = new HeldReads(new InMemoryMetadataStore());
    private final List<HybrisListener.CloudRequest> requests = new ArrayList<>();
    /** The object name whose GETs, from now on, wait for this client to abort them and then end early. */
    private volatile String endsAtAbort = "";
    private final List<Hybris> clients = new ArrayList<>();

    SpeculativeReadTest() {
        slow0.setActive(false);
        slow1.setActive(false);
    }

    @AfterEach
    void close() {
        slow0.setActive(false);
        slow1.setActive(false);
        metadata.release();
        clients.forEach(Hybris::close);
    }

    private Hybris open(String clientId, boolean speculate, boolean gc) {
        HybrisListener events = new HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                synchronized (requests) {
                    requests.add(request);
                }
            }
        };
        Hybris h = Hybris.open(HybrisConfig.builder().f(1).clientId(clientId).metadataStore(metadata)
                .cloud(c0).cloud(c1).deadline(Duration.ofSeconds(60)).timerMin(Duration.ofSeconds(30))
                .timerInitial(Duration.ofSeconds(30)).probeInterval(Duration.ZERO).gcEnabled(gc)
                .gcGrace(Duration.ZERO).reads(ReadSettings.builder().speculate(speculate).hedge(false).build())
                .listener(events).build());
        clients.add(h);
        return h;
    }

    /** The calls since the last look, as "PUT name" / "GET name"; clears the log. */
    private List<String> calls() {
        return log.drain(c -> c.op() + " " + c.objectKey());
    }

    private List<String> gets() {
        return log.peek().stream().filter(c -> c.op() == CallLog.Op.GET).map(c -> "GET " + c.objectKey()).toList();
    }

    /** The object name of the version the PUTs in {@code puts} stored (both copies have the one name). */
    private static String stored(List<String> puts) {
        assertThat(puts).hasSize(2).allMatch(c -> c.startsWith("PUT ")).extracting(c -> c.substring(4)).hasSize(2);
        assertThat(puts.get(0)).isEqualTo(puts.get(1));
        return puts.get(0).substring(4);
    }

    /** Runs a GET of box/k on another thread, its metadata read held until {@link HeldReads#release()}. */
    private CompletableFuture<Optional<byte[]>> getWithMetadataReadHeld(Hybris h) {
        metadata.hold();
        CompletableFuture<Optional<byte[]>> get = CompletableFuture.supplyAsync(() -> h.get("box", "k"));
        await().atMost(Duration.ofSeconds(20)).until(() -> metadata.held() == 1);
        return get;
    }

    @Test
    void aGetOfTheVersionThisClientWroteReadsItsCloudWhileTheMetadataReadIsStillOut() {
        Hybris a = open("a", true, true);
        a.put("box", "k", V1);
        String v1 = stored(calls());

        CompletableFuture<Optional<byte[]>> get = getWithMetadataReadHeld(a);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 1);
        assertThat(get).as("the metadata read is still held").isNotDone();
        metadata.release();

        assertThat(get.join()).hasValue(V1);
        assertThat(calls()).as("one cloud read, of the version committed, started before the metadata answered")
                .containsExactly("GET " + v1);
    }

    @Test
    void aGuessAnotherClientOverwroteIsDroppedAndTheGetReturnsTheVersionTheMetadataReadFound() {
        Hybris a = open("a", true, true);
        Hybris b = open("b", true, true);
        a.put("box", "k", V1);
        String v1 = stored(calls());
        b.put("box", "k", V2); // with GC on, version one's copies go too: the guess cannot be read at all
        String v2 = stored(calls().stream().filter(c -> c.startsWith("PUT ")).toList());
        await().atMost(Duration.ofSeconds(20)).until(() -> mem0.get(v1, 1 << 20).isEmpty()
                && mem1.get(v1, 1 << 20).isEmpty());

        CompletableFuture<Optional<byte[]>> get = getWithMetadataReadHeld(a);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 1);
        metadata.release();

        assertThat(get.join()).as("the version the metadata read found, not the guess").hasValue(V2);
        assertThat(calls()).as("the guess's first request only (no failover before the metadata read confirms it), "
                + "then the version found").containsExactly("GET " + v1, "GET " + v2);
        assertThat(outcomes(v1)).as("answered before the metadata read: not found, dropped, no other cloud asked")
                .containsExactly(HybrisListener.Outcome.NOT_FOUND);
        assertThat(a.get("box", "k")).hasValue(V2);
        assertThat(calls()).as("the next GET guesses what the metadata read found").containsExactly("GET " + v2);
    }

    @Test
    void aClientWhoseGuessesKeepMissingStopsSpeculatingAndStartsAgainWhenTheyHit() {
        Hybris a = open("a", true, false);
        Hybris b = open("b", true, false);
        a.put("box", "k", V1);
        byte[] last = V1;
        for (int i = 0; i < 7; i++) { // each of a's guesses is wrong: b overwrote the key since a's last look
            byte[] next = i % 2 == 0 ? V2 : V1;
            b.put("box", "k", next);
            assertThat(a.get("box", "k")).hasValue(next);
            last = next;
        }
        String current = calls().stream().filter(c -> c.startsWith("PUT ")).reduce((x, y) -> y).orElseThrow()
                .substring(4);

        // a's guess is right this time, but seven wrong ones in a row put its rate below two thirds: no early read
        CompletableFuture<Optional<byte[]>> get = getWithMetadataReadHeld(a);
        assertThat(gets()).as("no cloud asked while the metadata read is held").isEmpty();
        metadata.release();
        assertThat(get.join()).hasValue(last);
        assertThat(calls()).containsExactly("GET " + current);

        // right guesses are scored without a read too: this one and the one before bring the rate back up
        assertThat(a.get("box", "k")).hasValue(last);
        calls();
        get = getWithMetadataReadHeld(a);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 1);
        assertThat(get).as("the metadata read is still held").isNotDone();
        metadata.release();
        assertThat(get.join()).hasValue(last);
        assertThat(calls()).containsExactly("GET " + current);
    }

    @Test
    void withSpeculationOffAGetReadsOnlyTheVersionItsMetadataReadFound() {
        Hybris a = open("a", false, false);
        Hybris b = open("b", false, false);
        a.put("box", "k", V1);
        calls();
        b.put("box", "k", V2);
        String v2 = stored(calls());

        assertThat(a.get("box", "k")).hasValue(V2);
        assertThat(calls()).containsExactly("GET " + v2);
    }

    @Test
    void anInterruptedGetAbandonsItsSpeculativeRead() {
        Hybris a = open("a", true, true);
        a.put("box", "k", V1);
        String v1 = stored(calls());
        slow0.setActive(true); // reads hang from now on
        slow1.setActive(true);
        metadata.hold();
        InterruptibleCall get = InterruptibleCall.start(() -> a.get("box", "k"));
        await().atMost(Duration.ofSeconds(20)).until(() -> metadata.held() == 1 && !gets().isEmpty());
        assertThat(gets()).as("the fastest cloud asked, the other not yet (30 s timer)").containsExactly("GET " + v1);

        get.interrupt();
        assertThat(get.join()).isInstanceOf(CallInterruptedException.class);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(outcomes(v1)).as("given up when the caller was interrupted, then ended cancelled")
                    .containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.ERROR);
        });
        assertThat(realEnds(v1)).containsExactly(HybrisListener.FailureKind.CANCELLED);
        assertThat(calls()).as("nothing else was asked").containsExactly("GET " + v1);
    }

    @Test
    void aSpeculativeReadAbortedWhileItsAnswerArrivesIsAbandonedNotCorrupt() {
        Hybris a = open("a", true, false);
        Hybris b = open("b", true, false);
        a.put("box", "k", V1);
        String v1 = stored(calls());
        b.put("box", "k", V2);
        calls();
        endsAtAbort = v1; // as a socket read whose connection the abort closes: it returns the bytes it had (none)

        CompletableFuture<Optional<byte[]>> get = getWithMetadataReadHeld(a);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 1);
        metadata.release();

        assertThat(get.join()).hasValue(V2);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(v1))
                .as("given up, then cut short by this client's abort: not the cloud's fault")
                .containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.ERROR));
        assertThat(realEnds(v1)).containsExactly(HybrisListener.FailureKind.CANCELLED);
        assertThat(a.cloudStatus()).allMatch(s -> s.quarantined().isEmpty());
    }

    /** How the GETs of {@code objectKey} really ended (the events other than their abandonment). */
    private List<HybrisListener.FailureKind> realEnds(String objectKey) {
        synchronized (requests) {
            return requests.stream().filter(r -> r.objectKey().equals(objectKey)
                    && r.operation() == HybrisListener.CloudOperation.GET
                    && r.outcome() != HybrisListener.Outcome.ABANDONED).map(HybrisListener.CloudRequest::failureKind)
                    .toList();
        }
    }

    private List<HybrisListener.Outcome> outcomes(String objectKey) {
        synchronized (requests) {
            return requests.stream().filter(r -> r.objectKey().equals(objectKey)
                    && r.operation() == HybrisListener.CloudOperation.GET).map(HybrisListener.CloudRequest::outcome)
                    .toList();
        }
    }

    /** GETs of the object named {@link #endsAtAbort} wait for this client to abort them, then end early. */
    private final class EndsAtAbort extends ForwardingCloudStore {
        EndsAtAbort(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            if (objectKey.equals(endsAtAbort)) {
                return endAtAbort();
            }
            return super.get(objectKey, maxBytes);
        }

        /** Waits for this request's abort (not its interrupt, as a socket read would), then ends with no bytes. */
        private Optional<byte[]> endAtAbort() {
            AbortSignal signal = AbortSignal.current();
            CountDownLatch aborted = new CountDownLatch(1);
            if (signal != null && signal.onAbort(aborted::countDown) != null) {
                boolean done = false;
                while (!done) {
                    try {
                        done = aborted.await(1, java.util.concurrent.TimeUnit.MINUTES);
                    } catch (InterruptedException ignored) {
                        // a socket read does not end on an interrupt; the abort closes its connection
                    }
                }
            }
            return Optional.of(new byte[0]);
        }
    }

    /** Holds metadata reads (not watches or updates) while armed. */
    private static final class HeldReads extends ForwardingMetadataStore {
        private final CallGate gate = new CallGate();

        HeldReads(MetadataStore delegate) {
            super(delegate);
        }

        void hold() {
            gate.hold();
        }

        void release() {
            gate.release();
        }

        int held() {
            return gate.held();
        }

        @Override
        public Optional<VersionedValue> read(MetadataKey key) {
            try {
                if (!gate.pass(Duration.ofMinutes(5))) {
                    throw new IllegalStateException("metadata read held for 5 minutes");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("metadata read interrupted while held", e);
            }
            return super.read(key);
        }
    }
}
