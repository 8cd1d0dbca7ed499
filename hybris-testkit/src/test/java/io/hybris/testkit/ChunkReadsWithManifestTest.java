/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.CallInterruptedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.ValueStream;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;

import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first chunks of a chunked value read alongside its manifest ({@code hybris.get.speculate},
 * docs/streaming.md "Protocol"): a client that does not have the manifest in memory requests the chunks it reads
 * first while the manifest's GET is still out, and uses their answers only once the manifest confirms them.
 * Asserted by which clouds received which GETs while the manifest's GET was held, and by what the GET returned and
 * the listener saw — never by timings. The clouds are in memory behind decorators that, like real clouds, bound no
 * call; the paper's timer is 30 s and hedging is off, so no request here is a timer's doing.
 */
class ChunkReadsWithManifestTest {
    private static final int CHUNK = 64 << 10;
    /** Three chunks: two whole and one of 1,000 bytes. */
    private static final byte[] VALUE = StreamingFixture.value(2 * CHUNK + 1_000, 21);

    private final CallLog log = new CallLog("hybris/box/");
    private final List<InMemoryCloudStore> mem = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    /** GETs of manifests (not chunks) are held while armed. */
    private final List<HeldGets> held = mem.stream().map(m -> new HeldGets(m, name -> !isChunk(name))).toList();
    /** PUTs of manifests fail on these clouds' ids. */
    private final List<String> manifestPutsFailOn = new CopyOnWriteArrayList<>();
    /** PUTs of chunks fail on these clouds' ids. */
    private final List<String> chunkPutsFailOn = new CopyOnWriteArrayList<>();
    private final List<CloudStore> clouds = held.stream().map(h -> log.wrap(new FailingPuts(h))).toList();
    private final MetadataStore metadata = new InMemoryMetadataStore();
    private final EventRecorder events = new EventRecorder();
    private final OpenedClients opened = new OpenedClients();
    /** Whether the clients opened from now on encrypt (keys in metadata). */
    private boolean encrypted;
    /** The listener of the clients opened from now on. */
    private HybrisListener listener = events;
    /** The shortest timer of the clients opened from now on (an unmeasured size class's stays 30 s). */
    private Duration timerMin = Duration.ofSeconds(30);

    @AfterEach
    void close() {
        held.forEach(HeldGets::release);
        opened.close();
    }

    private Hybris open(String clientId, int cloudCount, boolean speculate) {
        HybrisConfig.Builder b = OpenedClients.config(metadata, clouds.subList(0, cloudCount)).clientId(clientId)
                .deadline(Duration.ofSeconds(60)).timerMin(timerMin).timerInitial(Duration.ofSeconds(30))
                .gcGrace(Duration.ZERO).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .reads(ReadSettings.builder().speculate(speculate).hedge(false).build()).listener(listener);
        if (encrypted) {
            b.encryption(new MetadataKeyProvider());
        }
        return opened.open(b);
    }

    /** Client "a" writes {@link #VALUE} to box/k; returns the manifest's object name. */
    private String written(int cloudCount) {
        open("a", cloudCount, true).put("box", "k", VALUE);
        List<String> puts = log.drain(c -> c.op() + " " + c.objectKey()).stream()
                .filter(c -> c.startsWith("PUT ") && !isChunk(c)).toList();
        return puts.get(0).substring(4);
    }

    /** Whether {@code name} is a chunk's: the version's name, then {@code #c} and the index. */
    private static boolean isChunk(String name) {
        return name.matches(".*#c[0-9]+");
    }

    /** The GETs logged so far, as "cloud name", oldest first. */
    private List<String> gets() {
        return log.peek().stream().filter(c -> c.op() == CallLog.Op.GET).map(c -> c.cloudId() + " " + c.objectKey())
                .toList();
    }

    /** Runs a GET of box/k by {@code client} on another thread, the manifests' GETs held until released. */
    private CompletableFuture<Optional<byte[]>> getWithManifestReadsHeld(Hybris client) {
        holdManifestReads();
        return CompletableFuture.supplyAsync(() -> client.get("box", "k"));
    }

    private void holdManifestReads() {
        held.forEach(HeldGets::hold);
    }

    private void releaseManifestReads() {
        held.forEach(HeldGets::release);
    }

    private int heldGets() {
        return held.stream().mapToInt(HeldGets::held).sum();
    }

    /** The GETs of {@code objectKey} the reader's (and writer's) listener saw end, oldest first. */
    private List<HybrisListener.CloudRequest> requestsFor(String objectKey) {
        return events.requests().stream().filter(r -> r.operation() == HybrisListener.CloudOperation.GET)
                .filter(r -> r.objectKey().equals(objectKey)).toList();
    }

    @Test
    void anotherClientsGetRequestsTheFirstChunksWhileTheManifestReadIsStillOut() {
        String manifest = written(2);
        Hybris b = open("b", 2, true);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);
        assertThat(get).as("the manifest's GET is still held").isNotDone();
        assertThat(heldGets()).isEqualTo(1);
        assertThat(gets()).as("the manifest and all three chunks (read-ahead 4), each asked of one cloud")
                .containsExactlyInAnyOrder("c0 " + manifest, "c0 " + manifest + "#c0", "c0 " + manifest + "#c1",
                        "c0 " + manifest + "#c2");

        releaseManifestReads();
        assertReturnedWithEachChunkReadOnce(get, manifest);
    }

    /** The GET returned the value, and each chunk's one request (the one started early) answered it. */
    private void assertReturnedWithEachChunkReadOnce(CompletableFuture<Optional<byte[]>> get, String manifest) {
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(gets()).as("no chunk was asked for twice").hasSize(4);
        for (int i = 0; i < 3; i++) {
            assertThat(requestsFor(manifest + "#c" + i)).extracting(HybrisListener.CloudRequest::outcome)
                    .containsExactly(HybrisListener.Outcome.OK);
        }
    }

    @Test
    void anEncryptedValuesChunksAreGuessedWithTheCiphersFramingAndReadOnce() {
        encrypted = true;
        String manifest = written(2);
        Hybris b = open("b", 2, true);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);

        releaseManifestReads();
        assertReturnedWithEachChunkReadOnce(get, manifest);
    }

    @Test
    void aStreamRequestsOnlyTheChunkItsRangeStartsInAlongsideTheManifest() throws IOException {
        String manifest = written(2);
        Hybris b = open("b", 2, true);
        holdManifestReads();
        CompletableFuture<Optional<ValueStream>> open = CompletableFuture.supplyAsync(
                () -> b.get("box", "k", ByteRange.from(CHUNK + 10)));
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 2);
        assertThat(open).isNotDone();
        assertThat(gets()).containsExactlyInAnyOrder("c0 " + manifest, "c0 " + manifest + "#c1");

        releaseManifestReads();
        try (InputStream in = open.join().orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(VALUE, CHUNK + 10, VALUE.length));
        }
        assertThat(gets()).as("chunk 0 is outside the range; chunk 2 is read ahead once chunk 1 arrived").hasSize(3)
                .endsWith("c0 " + manifest + "#c2");
    }

    @Test
    void aCorruptChunkReadEarlyIsJudgedAgainstTheManifestAndReadFromTheOtherCloud() {
        String manifest = written(2);
        byte[] bad = mem.get(0).get(manifest + "#c0", CHUNK).orElseThrow();
        bad[7] ^= 1;
        mem.get(0).put(manifest + "#c0", bad);
        Hybris b = open("b", 2, true);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);
        assertThat(requestsFor(manifest + "#c0")).as("not judged before the manifest gives its hash").isEmpty();

        releaseManifestReads();
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(requestsFor(manifest + "#c0")).extracting(r -> r.cloudId() + " " + r.outcome())
                .containsExactly("c0 CORRUPT", "c1 OK");
        assertThat(gets()).filteredOn(g -> g.endsWith("#c0"))
                .containsExactly("c0 " + manifest + "#c0", "c1 " + manifest + "#c0");
    }

    @Test
    void chunksOnOtherCloudsThanTheManifestAreNotTakenFromTheGuessButReadAsTheManifestSays() {
        manifestPutsFailOn.add("c1"); // the chunks land on c0 and c1, the manifest on c0 and c2
        String manifest = written(3);
        manifestPutsFailOn.clear();
        assertThat(mem.get(1).get(manifest + "#c0", CHUNK)).isPresent();
        assertThat(mem.get(1).get(manifest, CHUNK)).isEmpty();
        Hybris b = open("b", 3, true);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);

        releaseManifestReads();
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(requestsFor(manifest + "#c0"))
                .extracting(r -> r.cloudId() + " " + r.outcome())
                .as("the early request is given up without a verdict; the chunk is then read as the manifest says")
                .containsExactlyInAnyOrder("c0 ABANDONED", "c0 ERROR", "c0 OK"));
        assertThat(requestsFor(manifest + "#c0")).noneMatch(r -> r.outcome() == HybrisListener.Outcome.CORRUPT);
        assertThat(b.cloudStatus()).allSatisfy(s -> assertThat(s.quarantined()).isEmpty());
    }

    /**
     * The guess asks a cloud for a chunk it does not hold, and the manifest then puts the chunk on other clouds: the
     * empty answer waits for the manifest's verdict and, the guess wrong, ends as the guess's cancelled request, not
     * as a lost copy (NOT_FOUND, which an operator reads as data loss).
     */
    @Test
    void aGuessedCloudWithoutTheChunkIsAWrongGuessNotALostCopy() {
        manifestPutsFailOn.add("c1"); // the chunks land on c0 and c1, the manifest on c0 and c2
        String manifest = written(3);
        manifestPutsFailOn.clear();
        for (int i = 0; i < 3; i++) {
            mem.get(0).delete(manifest + "#c" + i); // and c0 loses its copies of the chunks
        }
        Hybris b = open("b", 3, true);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);
        assertThat(gets()).as("the guess asks the manifest's fastest cloud").allMatch(g -> g.startsWith("c0 "));
        assertThat(requestsFor(manifest + "#c0")).as("c0's empty answer waits for the manifest's verdict").isEmpty();

        releaseManifestReads();
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (int i = 0; i < 3; i++) {
                assertThat(requestsFor(manifest + "#c" + i)).extracting(r -> r.cloudId() + " " + r.outcome())
                        .as("chunk %d: the guess's request given up and cancelled; then read from c1", i)
                        .contains("c0 ABANDONED", "c0 ERROR", "c1 OK");
            }
        });
        long chunkGetsOfC0 = gets().stream().filter(g -> g.startsWith("c0 ") && isChunk(g)).count();
        assertThat(events.failures("c0", HybrisListener.FailureKind.NOT_FOUND))
                .as("a lost copy for each real read that asked c0 (the ranking decides how many), none for the"
                        + " three guesses").isEqualTo(chunkGetsOfC0 - 3);
    }

    /**
     * A chunk read started with the manifest keeps its answer waiting for the hash; if the manifest takes longer than
     * the chunk's timer, the timer counts from when the hash is known, so the reader that takes the read over waits
     * for the answer instead of finding the timer expired and asking the next cloud. A listener that takes 200 ms
     * per answer (a slow metrics sink) holds each answer back well past the moment the read is taken over.
     */
    @Test
    void aManifestSlowerThanTheChunksTimerDoesNotExpireItsEarlyRead() {
        byte[] whole = StreamingFixture.value(CHUNK, 5);
        String manifest = written(2);
        open("a2", 2, true).put("box", "whole", whole); // a value of the chunks' size class, stored whole
        timerMin = Duration.ofSeconds(1);
        listener = new HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                if (isChunk(request.objectKey()) && request.outcome() == Outcome.OK) {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                events.cloudRequest(request);
            }
        };
        Hybris b = open("b", 2, true);
        assertThat(b.get("box", "whole")).hasValueSatisfying(v -> assertThat(v).isEqualTo(whole));
        log.drain(CallLog.Call::toString);
        // c0 now has a measured read latency for the chunks' size class: their timer is the 1 s minimum, while the
        // manifest's size class, unmeasured, keeps the 30 s initial timer
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> gets().size() == 4);
        long chunksRequestedAt = System.nanoTime();
        await("the chunks' timers expire while the manifest is held").atMost(Duration.ofSeconds(10))
                .until(() -> System.nanoTime() - chunksRequestedAt > Duration.ofMillis(1500).toNanos());

        releaseManifestReads();
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(gets()).as("each chunk asked of c0 once, none of c1").hasSize(4).allMatch(g -> g.startsWith("c0 "));
        for (int i = 0; i < 3; i++) {
            assertThat(requestsFor(manifest + "#c" + i)).extracting(HybrisListener.CloudRequest::outcome)
                    .containsExactly(HybrisListener.Outcome.OK);
        }
        assertThat(b.cloudStatus()).allSatisfy(s -> assertThat(s.failing()).as(s.cloudId()).isFalse());
    }

    @Test
    void withSpeculationOffNoChunkIsRequestedBeforeTheManifestArrives() {
        String manifest = written(2);
        Hybris b = open("b", 2, false);
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> heldGets() == 1);
        assertThat(gets()).containsExactly("c0 " + manifest);

        releaseManifestReads();
        assertThat(get.join()).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        assertThat(gets()).hasSize(4);
    }

    @Test
    void closingTheClientWhileTheManifestIsOutEndsTheChunkReadsStartedEarly() {
        String manifest = written(2);
        Hybris b = open("b", 2, true);
        held.forEach(h -> h.holdAlso(name -> name.startsWith("hybris/box/"))); // the chunks' GETs too
        CompletableFuture<Optional<byte[]>> get = getWithManifestReadsHeld(b);
        await().atMost(Duration.ofSeconds(20)).until(() -> heldGets() == 4);

        b.close();
        assertThat(get).failsWithin(Duration.ofSeconds(20));
        await("every held GET, the manifest's and the chunks', ended").atMost(Duration.ofSeconds(20))
                .until(() -> heldGets() == 0);
        assertThat(gets()).hasSize(4).allMatch(g -> g.startsWith("c0 " + manifest));
    }

    @Test
    void anInterruptedGetEndsTheChunkReadsItStartedEarly() {
        String manifest = written(2);
        Hybris b = open("b", 2, true);
        held.forEach(h -> h.holdAlso(name -> name.startsWith("hybris/box/"))); // the chunks' GETs too
        holdManifestReads();
        InterruptibleCall get = InterruptibleCall.start(() -> b.get("box", "k"));
        await().atMost(Duration.ofSeconds(20)).until(() -> heldGets() == 4);

        get.interrupt();
        assertThat(get.join()).isInstanceOf(CallInterruptedException.class);
        await("every held GET, the manifest's and the chunks', ended").atMost(Duration.ofSeconds(20))
                .until(() -> heldGets() == 0);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (int i = 0; i < 3; i++) {
                assertThat(requestsFor(manifest + "#c" + i)).extracting(HybrisListener.CloudRequest::outcome)
                        .as("chunk %d: given up, then ended cancelled", i)
                        .containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.ERROR);
            }
        });
        releaseManifestReads();
        assertThat(b.get("box", "k")).as("the client still reads").hasValueSatisfying(v -> assertThat(v)
                .isEqualTo(VALUE));
    }

    /** Fails PUTs of manifests on the clouds in {@link #manifestPutsFailOn}, of chunks on {@link #chunkPutsFailOn}. */
    private final class FailingPuts extends ForwardingCloudStore {
        FailingPuts(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if ((isChunk(objectKey) ? chunkPutsFailOn : manifestPutsFailOn).contains(id())) {
                throw new TransientCloudException(id(), "refuses " + (isChunk(objectKey) ? "chunks" : "manifests")
                        + " in this test");
            }
            super.put(objectKey, value);
        }
    }
}
