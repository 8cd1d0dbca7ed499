/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.SweepReport;
import io.hybris.UploadedPart;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.PREFIX;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Uploads in parts whose calls are interrupted, or whose client closes, while their cloud writes are in flight: the
 * documented exception with the interrupt flag kept, nothing committed, the interrupted part's chunks deleted once
 * they land, and every part acknowledged before still completes the upload.
 */
class PartUploadInterruptsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final AtomicReference<Predicate<String>> held = new AtomicReference<>(n -> false);
    private final List<GatedCloudStore> gates = new ArrayList<>();
    private final StreamingFixture fx = new StreamingFixture(c -> {
        GatedCloudStore gate = GatedCloudStore.of(c, n -> held.get().test(n));
        gates.add(gate);
        return gate;
    });

    @AfterEach
    void close() {
        gates.forEach(GatedCloudStore::open);
        fx.close();
    }

    /** Part numbers of the chunks on every cloud, one entry per copy. */
    private List<Integer> partsStored(String key) {
        return fx.objectsOf(key).stream().flatMap(n -> VersionName.parseChunk(PREFIX, n).stream())
                .map(c -> (int) (c.index() >>> 45)).sorted().toList();
    }

    private int blocked() {
        return gates.stream().mapToInt(GatedCloudStore::blockedCount).sum();
    }

    private static boolean isPart(String name, int part) {
        return VersionName.parseChunk(PREFIX, name).filter(c -> c.index() >>> 45 == part).isPresent();
    }

    /**
     * Runs {@code call} on a thread of its own, interrupts it once two of its cloud calls are held, and checks that it
     * ended with {@link CallInterruptedException}, its interrupt flag kept.
     */
    private void interruptedOnceBlocked(Runnable call) throws InterruptedException {
        AtomicReference<Outcome> outcome = new AtomicReference<>();
        Thread t = run(call, outcome);
        await().atMost(WAIT).until(() -> blocked() >= 2);

        t.interrupt();
        t.join(WAIT.toMillis());

        assertThat(t.isAlive()).isFalse();
        assertThat(outcome.get().thrown()).isInstanceOf(CallInterruptedException.class);
        assertThat(outcome.get().flagKept()).isTrue();
    }

    /** Runs {@code call} on a thread of its own; the outcome is its failure and whether its interrupt flag was set. */
    private record Outcome(Throwable thrown, boolean flagKept) {
    }

    private static Thread run(Runnable call, AtomicReference<Outcome> outcome) {
        Thread t = new Thread(() -> {
            try {
                call.run();
                outcome.set(new Outcome(null, Thread.currentThread().isInterrupted()));
            } catch (Throwable e) {
                outcome.set(new Outcome(e, Thread.currentThread().isInterrupted()));
            }
        });
        t.start();
        return t;
    }

    @Test
    void aPartInterruptedInFlightFailsAndLeavesNoChunkAndTheOthersStillComplete() throws Exception {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        held.set(n -> isPart(n, 2));
        interruptedOnceBlocked(() -> parts.upload(upload, 2, new ByteArrayInputStream(value(3 * CHUNK, 2)),
                3 * CHUNK));
        gates.forEach(GatedCloudStore::open); // the copies held on the wire land now, and must be deleted
        await().atMost(WAIT).untilAsserted(() -> assertThat(partsStored("k")).as("only part 1, on 2 clouds")
                .containsExactly(1, 1));
        UploadedPart p3 = parts.upload(upload, 3, new ByteArrayInputStream(value(10, 3)), 10);
        parts.complete(upload, List.of(p1, p3), PutOptions.none());
        byte[] expected = new byte[CHUNK + 10];
        System.arraycopy(value(CHUNK, 1), 0, expected, 0, CHUNK);
        System.arraycopy(value(10, 3), 0, expected, CHUNK, 10);
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
    }

    @Test
    void aCompleteInterruptedBeforeItsManifestLandsCommitsNothingAndCanBeRepeated() throws Exception {
        Hybris h = fx.open();
        h.put(C, "k", "old".getBytes());
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(7, 2)), 7);
        AtomicBoolean holding = new AtomicBoolean(true);
        held.set(n -> holding.get() && n.contains(upload.version()) && !n.contains("#c"));
        interruptedOnceBlocked(() -> parts.complete(upload, List.of(p1, p2), PutOptions.none()));
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo("old".getBytes()));
        holding.set(false);
        gates.forEach(GatedCloudStore::open);
        assertThat(partsStored("k")).as("the parts' chunks are kept").containsExactly(1, 1, 1, 1, 2, 2);

        assertThat(parts.complete(upload, List.of(p1, p2), PutOptions.none()).version()).isEqualTo(upload.version());
        byte[] expected = new byte[CHUNK + 8];
        System.arraycopy(value(CHUNK + 1, 1), 0, expected, 0, CHUNK + 1);
        System.arraycopy(value(7, 2), 0, expected, CHUNK + 1, 7);
        assertThat(fx.open(b -> b.clientId("r1")).get(C, "k")).hasValueSatisfying(v ->
                assertThat(v).isEqualTo(expected));
    }

    @Test
    void closingTheClientFailsItsPartInFlightAndAnotherClientCompletesTheRest() throws Exception {
        Hybris h = fx.open();
        Hybris other = fx.open(b -> b.clientId("w2"));
        PartUpload upload = PartUploads.of(h).start(C, "k");
        UploadedPart p1 = PartUploads.of(h).upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        held.set(n -> isPart(n, 2));
        AtomicReference<Outcome> outcome = new AtomicReference<>();
        Thread t = run(() -> PartUploads.of(h).upload(upload, 2, new ByteArrayInputStream(value(2 * CHUNK, 2)),
                2 * CHUNK), outcome);
        await().atMost(WAIT).until(() -> blocked() >= 2);

        h.close();
        t.join(WAIT.toMillis());

        assertThat(t.isAlive()).isFalse();
        assertThat(outcome.get().thrown()).isInstanceOf(ClientClosedException.class);
        gates.forEach(GatedCloudStore::open);
        assertThat(PartUploads.of(other).complete(upload, List.of(p1), PutOptions.none()).size()).isEqualTo(CHUNK);
        assertThat(other.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(CHUNK, 1)));
        await().atMost(WAIT).untilAsserted(() -> assertThat(partsStored("k")).containsExactly(1, 1));
    }

    /**
     * A part still uploading when another caller completes the upload without it: its chunks land after the
     * completion listed the version's leftovers, under the now current version, which the orphan sweep never takes.
     * The part must not be acknowledged for an upload already completed, and its chunks must go.
     */
    @Test
    void aPartLandingAfterTheUploadCompletedWithoutItIsRefusedAndItsChunksGo() throws Exception {
        MutableClock clock = new MutableClock();
        Hybris h = fx.open(b -> b.clock(clock).gcGrace(Duration.ofHours(1)));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        held.set(n -> isPart(n, 2));
        AtomicReference<Outcome> outcome = new AtomicReference<>();
        Thread t = run(() -> parts.upload(upload, 2, new ByteArrayInputStream(value(CHUNK, 2)), CHUNK), outcome);
        await().atMost(WAIT).until(() -> blocked() >= 2);
        parts.complete(upload, List.of(p1), PutOptions.none());
        await().atMost(WAIT).untilAsserted(() -> assertThat(partsStored("k")).containsExactly(1, 1));

        gates.forEach(GatedCloudStore::open);
        t.join(WAIT.toMillis());

        assertThat(t.isAlive()).isFalse();
        assertThat(outcome.get().thrown()).isInstanceOf(io.hybris.InvalidRequestException.class)
                .hasMessageContaining("was completed");
        await().atMost(WAIT).untilAsserted(() -> assertThat(partsStored("k")).as("part 2's chunks are deleted")
                .containsExactly(1, 1));
        clock.advance(Duration.ofHours(2));
        SweepReport swept = h.sweepOrphans(); // ages by the clouds' clocks: anything unreferenced is young or deleted
        assertThat(swept.deleted()).isZero();
        assertThat(swept.tooYoung()).isZero();
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(CHUNK, 1)));
    }

    /**
     * The manifest copies of a complete interrupted while they were on the wire land after its repeat stored its own
     * copies (same version, same name) but before the repeat commits. A late copy is deleted unless the key's
     * metadata expects it; read before the commit, the metadata did not, and the deletion, by name, took the repeat's
     * copy: its committed value lost its manifest on that cloud (on both, in a run where both copies landed late).
     * A copy of a version that may still commit is now left to the sweep.
     */
    @Test
    void lateManifestCopiesOfAnInterruptedCompleteDoNotTakeTheRepeatsCopies() throws Exception {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        io.hybris.spi.MetadataStore counting = new ForwardingMetadataStore(fx.metadata) {
            @Override
            public java.util.Optional<io.hybris.spi.VersionedValue> read(io.hybris.spi.MetadataKey key) {
                if (key.key().equals("k")) {
                    reads.incrementAndGet();
                }
                return super.read(key);
            }
        };
        java.util.concurrent.CountDownLatch commitHeld = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Hybris h = fx.open(b -> b.metadataStore(HeldUpdates.first(counting, u -> u.key().key().equals("k"),
                commitHeld, go, WAIT)));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(7, 2)), 7);
        AtomicBoolean holding = new AtomicBoolean(true);
        held.set(n -> holding.get() && n.contains(upload.version()) && !n.contains("#c"));
        interruptedOnceBlocked(() -> parts.complete(upload, List.of(p1, p2), PutOptions.none()));
        holding.set(false);

        java.util.concurrent.CompletableFuture<io.hybris.VersionInfo> repeat = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> parts.complete(upload, List.of(p1, p2), PutOptions.none()));
        assertThat(commitHeld.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                .as("the repeat stored its manifest and is about to commit").isTrue();
        int before = reads.get();
        gates.forEach(GatedCloudStore::open); // the first attempt's copies land now, over the repeat's
        await().atMost(WAIT).until(() -> reads.get() >= before + 2); // each late copy's metadata check
        go.countDown();
        io.hybris.VersionInfo committed = repeat.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);

        h.close(); // waits for the background deletions
        String manifest = VersionName.keyPrefix(PREFIX, C, "k") + upload.version();
        for (String cloud : committed.clouds()) {
            assertThat(fx.objects().get(cloud)).as("the committed manifest on " + cloud).contains(manifest);
        }
        byte[] expected = new byte[CHUNK + 1 + 7];
        System.arraycopy(value(CHUNK + 1, 1), 0, expected, 0, CHUNK + 1);
        System.arraycopy(value(7, 2), 0, expected, CHUNK + 1, 7);
        assertThat(fx.open().get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
    }
}
