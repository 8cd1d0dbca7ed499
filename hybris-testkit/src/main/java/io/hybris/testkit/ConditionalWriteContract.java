/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.HybrisListener;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.SweepReport;
import io.hybris.VersionInfo;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Conditional writes (the sync-backend issue): {@link PutOptions#ifMatch}, {@link PutOptions#ifAbsent},
 * {@link DeleteOptions#ifMatch} and per-key preconditions of a transaction — checked before anything is uploaded,
 * re-checked atomically at the commit, the lost race failing with {@link PreconditionFailedException} carrying the
 * current version and leaving nothing behind; and two clients' DELETEs of one value without a precondition, of which
 * one deletes it and the other finds it deleted. Every metadata store runs it.
 */
public abstract class ConditionalWriteContract extends HybrisContractFixture {

    @Test
    void putsReturnTheirVersionAndIfMatchAndIfAbsentGuardThem() {
        Hybris h = openPlain();
        VersionInfo first = h.put(C, "k", bytes("v1"), PutOptions.ifAbsent());
        assertThat(first).isEqualTo(h.describe(C, "k").orElseThrow());
        assertThatThrownBy(() -> h.put(C, "k", bytes("again"), PutOptions.ifAbsent()))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
                    assertThat(e.key()).isEqualTo("k");
                    assertThat(e.current()).hasValue(first);
                }).hasMessageContaining("needs no value").hasMessageContaining("nothing was written");
        VersionInfo second = h.put(C, "k", bytes("v2"), PutOptions.ifMatch(first.version()));
        assertThat(second.sequence()).isEqualTo(first.sequence() + 1);
        assertThatThrownBy(() -> h.put(C, "k", bytes("stale"), PutOptions.ifMatch(first.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class,
                        e -> assertThat(e.current()).hasValue(second));
        assertThat(str(h.get(C, "k"))).isEqualTo("v2");
        // a deleted key is absent again
        assertThat(h.delete(C, "k")).hasValueSatisfying(d -> assertThat(d.sequence()).isEqualTo(second.sequence() + 1));
        assertThatThrownBy(() -> h.put(C, "k", bytes("x"), PutOptions.ifMatch(second.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.current()).isEmpty());
        assertThat(h.put(C, "k", bytes("v3"), PutOptions.ifAbsent()).sequence()).isEqualTo(second.sequence() + 2);
        assertThat(h.delete(C, "never")).isEmpty();
    }

    @Test
    void metadataAfterReadIsTakenOnceTheValueWasReadWholeOrChunked() throws Exception {
        Hybris h = open(config(raw).chunkSize(64 << 10).chunkThreshold(64 << 10));
        for (int size : new int[] {1000, 300 << 10}) {
            byte[] value = new byte[size];
            new java.util.Random(size).nextBytes(value);
            java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
            java.io.InputStream in = new java.security.DigestInputStream(new ByteArrayInputStream(value), md5);
            java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
            VersionInfo v = h.put(C, "md5-" + size, in, size, PutOptions.ifAbsent()
                    .withMetadata(Map.of("content-type", "application/octet-stream", "etag", "early"))
                    .withMetadataAfterRead(() -> {
                        calls.incrementAndGet();
                        return Map.of("etag", java.util.HexFormat.of().formatHex(md5.digest()));
                    }));
            String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                    .digest(value));
            assertThat(v.metadata()).containsEntry("etag", expected)
                    .containsEntry("content-type", "application/octet-stream");
            assertThat(h.describe(C, "md5-" + size).orElseThrow().metadata()).isEqualTo(v.metadata());
            assertThat(calls).hasValue(1);
        }
        assertThatThrownBy(() -> h.put(C, "bad-late", new ByteArrayInputStream(new byte[10]), 10,
                PutOptions.none().withMetadataAfterRead(() -> Map.of("Not Valid", "x"))))
                .isInstanceOf(io.hybris.InvalidRequestException.class).hasMessageContaining("'Not Valid'");
        assertThat(h.describe(C, "bad-late")).isEmpty();
    }

    @Test
    void aFilePutTakesAPreconditionToo() throws Exception {
        Hybris h = openPlain();
        java.nio.file.Path file = java.nio.file.Files.createTempFile("hybris-conditional", ".txt");
        try {
            java.nio.file.Files.writeString(file, "from a file");
            VersionInfo first = h.put(C, "f", file, PutOptions.ifAbsent().withMetadata(Map.of("mtime", "1")));
            assertThat(first.metadata()).containsEntry("mtime", "1");
            assertThatThrownBy(() -> h.put(C, "f", file, PutOptions.ifAbsent()))
                    .isInstanceOfSatisfying(PreconditionFailedException.class,
                            e -> assertThat(e.current()).hasValue(first));
            assertThat(h.put(C, "f", file, PutOptions.ifMatch(first.version())).sequence())
                    .isEqualTo(first.sequence() + 1);
            assertThat(str(h.get(C, "f"))).isEqualTo("from a file");
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void applicationMetadataTravelsWithTheVersion() throws Exception {
        Hybris h = open(config(raw).chunkSize(64 << 10).chunkThreshold(64 << 10));
        Map<String, String> meta = Map.of("content-type", "text/plain; charset=utf-8", "mtime", "1732435200",
                "parent", "7_a1b2c3.x", "note", "naïve ☃");
        VersionInfo small = h.put(C, "small", bytes("v"), PutOptions.none().withMetadata(meta));
        VersionInfo large = h.put(C, "large", new ByteArrayInputStream(new byte[200 << 10]), -1,
                PutOptions.ifAbsent().withMetadata(Map.of("content-type", "video/mp4")));
        assertThat(small.metadata()).isEqualTo(meta);
        assertThat(h.describe(C, "small").orElseThrow().metadata()).isEqualTo(meta);
        assertThat(h.describe(C, "large").orElseThrow().metadata()).containsExactly(Map.entry("content-type",
                "video/mp4"));
        try (io.hybris.ValueStream in = h.getStream(C, "small").orElseThrow()) {
            assertThat(in.version().metadata()).isEqualTo(meta);
        }
        Map<String, VersionInfo> tx = h.tput(C, Map.of("small", bytes("v2"), "t", bytes("t")),
                Map.of("small", PutOptions.ifMatch(small.version()).withMetadata(Map.of("rev", "2"))));
        assertThat(tx.get("small").metadata()).containsExactly(Map.entry("rev", "2"));
        assertThat(tx.get("t").metadata()).isEmpty();
        // metadata belongs to a version: an overwrite without any drops it
        h.put(C, "small", bytes("v3"));
        assertThat(h.describe(C, "small").orElseThrow().metadata()).isEmpty();
        assertThat(large.metadata()).containsKey("content-type");
        assertThatThrownBy(() -> PutOptions.none().withMetadata(Map.of("Bad Name", "x")))
                .isInstanceOf(io.hybris.InvalidRequestException.class).hasMessageContaining("'Bad Name'");
        assertThatThrownBy(() -> PutOptions.none().withMetadata(Map.of("big", "x".repeat(2048))))
                .isInstanceOf(io.hybris.InvalidRequestException.class).hasMessageContaining("2048");
        assertThatThrownBy(() -> PutOptions.none().withMetadata(Map.of("ctl", "a\nb")))
                .isInstanceOf(io.hybris.InvalidRequestException.class).hasMessageContaining("control");
    }

    @Test
    void aFailedPreconditionUploadsNothing() {
        List<RecordingCloudStore> clouds = recording(UnaryOperator.identity());
        Hybris h = open(config(clouds).chunkSize(64 << 10).chunkThreshold(64 << 10));
        VersionInfo v = h.put(C, "k", bytes("v1"));
        clouds.forEach(RecordingCloudStore::reset);
        assertThatThrownBy(() -> h.put(C, "k", bytes("v2"), PutOptions.ifAbsent()))
                .isInstanceOf(PreconditionFailedException.class);
        byte[] large = new byte[300 << 10];
        assertThatThrownBy(() -> h.put(C, "k", new ByteArrayInputStream(large), large.length,
                PutOptions.ifMatch("1_someone.1"))).isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> h.tput(C, Map.of("k", bytes("a"), "other", bytes("b")),
                Map.of("k", PutOptions.ifAbsent()))).isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> h.delete(C, "k", DeleteOptions.ifMatch("1_someone.1")))
                .isInstanceOf(PreconditionFailedException.class);
        assertThat(clouds).allSatisfy(c -> assertThat(c.count(RecordingCloudStore.Op.PUT)).isZero());
        assertThat(h.describe(C, "k")).hasValue(v);
        assertThat(h.describe(C, "other")).isEmpty();
    }

    @Test
    void aWriteIfMatchTheVersionJustReadSkipsItsMetadataReadAndStillLosesToAnotherClient() {
        List<HybrisListener.MetadataOperation> calls = Collections.synchronizedList(new ArrayList<>());
        HybrisListener counting = new HybrisListener() {
            @Override
            public void metadataCall(HybrisListener.MetadataOperation operation, HybrisListener.MetadataOutcome outcome,
                                     Duration duration) {
                calls.add(operation);
            }
        };
        Hybris rmw = open(config(raw).clientId("rmw-writer").listener(counting).clock(new MutableClock())
                .gcGrace(Duration.ofMinutes(10)));
        Hybris other = open(config(raw).clientId("other-writer"));
        other.put(C, "k", bytes("v1"));

        // read-modify-write: the GET's metadata read is the PUT's; the conditional update checks it is still current
        VersionInfo read = rmw.describe(C, "k").orElseThrow();
        calls.clear();
        VersionInfo mine = rmw.put(C, "k", bytes("v2"), PutOptions.ifMatch(read.version()));
        assertThat(calls).containsExactly(HybrisListener.MetadataOperation.UPDATE);
        assertThat(mine.sequence()).isEqualTo(read.sequence() + 1);
        assertThat(str(other.get(C, "k"))).isEqualTo("v2");

        // the version this client just committed guesses a GET's read, never orders a write: the store version the
        // commit left is unknown, so a write ifMatch it reads first
        calls.clear();
        VersionInfo again = rmw.put(C, "k", bytes("v3"), PutOptions.ifMatch(mine.version()));
        assertThat(calls).containsExactly(HybrisListener.MetadataOperation.READ,
                HybrisListener.MetadataOperation.UPDATE);
        assertThat(again.sequence()).isEqualTo(mine.sequence() + 1);

        // another client writes between the read and the write: the write uploads, loses at its commit, leaves nothing
        VersionInfo seen = rmw.describe(C, "k").orElseThrow();
        VersionInfo winner = other.put(C, "k", bytes("from-other"));
        long before = objectsOn(raw, "_rmw-writer.");
        calls.clear();
        assertThatThrownBy(() -> rmw.put(C, "k", bytes("stale"), PutOptions.ifMatch(seen.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
                    assertThat(e.current()).hasValue(winner);
                    assertThat(e.getMessage()).contains("a concurrent write committed first");
                });
        assertThat(calls).containsExactly(HybrisListener.MetadataOperation.UPDATE,
                HybrisListener.MetadataOperation.READ);
        assertThat(str(rmw.get(C, "k"))).isEqualTo("from-other");
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectsOn(raw, "_rmw-writer.")).isEqualTo(before));

        // a delete ifMatch the version just read skips its read too; a version not read by this client is read
        VersionInfo last = rmw.describe(C, "k").orElseThrow();
        calls.clear();
        assertThat(rmw.delete(C, "k", DeleteOptions.ifMatch(last.version()))).isPresent();
        assertThat(calls).containsExactly(HybrisListener.MetadataOperation.UPDATE);
        calls.clear();
        assertThatThrownBy(() -> rmw.put(C, "k", bytes("x"), PutOptions.ifMatch(last.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.current()).isEmpty());
        assertThat(calls).containsExactly(HybrisListener.MetadataOperation.READ);
    }

    @Test
    void deleteIfMatchDeletesOnlyThatVersion() {
        Hybris h = openPlain();
        VersionInfo v1 = h.put(C, "k", bytes("v1"));
        VersionInfo v2 = h.put(C, "k", bytes("v2"));
        assertThatThrownBy(() -> h.delete(C, "k", DeleteOptions.ifMatch(v1.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.current()).hasValue(v2));
        assertThat(str(h.get(C, "k"))).isEqualTo("v2");
        assertThat(h.delete(C, "k", DeleteOptions.ifMatch(v2.version()))).isPresent();
        assertThat(h.get(C, "k")).isEmpty();
        assertThatThrownBy(() -> h.delete(C, "k", DeleteOptions.ifMatch(v2.version())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> assertThat(e.current()).isEmpty());
    }

    @Test
    void aWriteThatLosesTheRaceAtItsCommitFailsWithTheWinnerAndLeavesNothing() throws Exception {
        MutableClock clock = new MutableClock();
        List<GatedCloudStore> gated = raw.stream()
                .map(c -> GatedCloudStore.of(ClockFollowingCloudStore.of(c, clock),
                        key -> key.contains("_slow-writer."))).toList();
        Hybris slow = open(config(gated).clientId("slow-writer").clock(clock).gcGrace(Duration.ofMinutes(10)));
        Hybris fast = open(config(raw).clientId("fast-writer"));
        VersionInfo base = fast.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> lost = CompletableFuture.supplyAsync(
                () -> slow.put(C, "k", bytes("slow"), PutOptions.ifMatch(base.version())));
        assertThat(gated.get(0).awaitBlocked(1, AWAIT) || gated.get(1).awaitBlocked(1, AWAIT)).isTrue();
        // the precondition held when the slow write checked it; now another write commits first
        VersionInfo winner = fast.put(C, "k", bytes("fast"));
        gated.forEach(GatedCloudStore::open);
        assertThat(lost).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
                    assertThat(e.current()).hasValue(winner);
                    assertThat(e.getMessage()).contains("a concurrent write committed first");
                });
        assertThat(str(fast.get(C, "k"))).isEqualTo("fast");
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectsOn(raw, "_slow-writer.")).isZero());
        clock.advance(Duration.ofMinutes(11));
        SweepReport sweep = slow.sweepOrphans();
        assertThat(sweep.deleted()).isZero();
        assertThat(sweep.tooYoung()).isZero();
    }

    @Test
    void anIfAbsentWriteOvertakenByAWriteAndADeletionSaysSoNotThatTheKeyHasNoValue() throws Exception {
        List<GatedCloudStore> gated = raw.stream()
                .map(c -> GatedCloudStore.of(c, key -> key.contains("_late-creator."))).toList();
        Hybris late = open(config(gated).clientId("late-creator"));
        Hybris other = open(config(raw).clientId("other-writer"));
        CompletableFuture<VersionInfo> lost = CompletableFuture.supplyAsync(
                () -> late.put(C, "k", bytes("late"), PutOptions.ifAbsent()));
        await().atMost(AWAIT).until(() -> gated.stream().mapToInt(GatedCloudStore::blockedCount).sum() >= 1);
        // the key had no value when the write checked it, and has none again at its commit: in between another
        // client created and deleted it, so the write cannot be ordered after that deletion
        other.put(C, "k", bytes("created"));
        VersionInfo deletion = other.delete(C, "k").orElseThrow();
        gated.forEach(GatedCloudStore::open);
        assertThat(lost).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
                    assertThat(e.current()).isEmpty();
                    assertThat(e.getMessage()).doesNotContain("but it has no value")
                            .contains(deletion.version()).contains("write again");
                });
        assertThat(late.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectsOn(raw, "_late-creator.")).isZero());
        // written again, it is ordered after the deletion
        assertThat(late.put(C, "k", bytes("again"), PutOptions.ifAbsent()).sequence())
                .isEqualTo(deletion.sequence() + 1);
    }

    /** {@link #metadata}, holding the first conditional update (counting {@code held} down) until {@code go}. */
    private MetadataStore holdingFirstUpdate(CountDownLatch held, CountDownLatch go) {
        return HeldUpdates.first(metadata, u -> true, held, go, AWAIT);
    }

    @Test
    void ofTwoConcurrentDeletesOfOneValueOnlyOneDeletesItWhenTheHeldOneOrdersFirst() throws Exception {
        concurrentDeletes("a-held");
    }

    @Test
    void ofTwoConcurrentDeletesOfOneValueOnlyOneDeletesItWhenTheHeldOneOrdersLast() throws Exception {
        concurrentDeletes("z-held");
    }

    /**
     * Two clients delete one value at once, without a precondition; {@code heldClient}'s update is held until the
     * other's deletion committed, and its timestamp orders before ("a-") or after ("z-") that deletion's. A DELETE of
     * a deleted key is a no-op that returns empty, so exactly one of the two says it deleted the value, and the key's
     * history holds one deletion.
     */
    private void concurrentDeletes(String heldClient) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore holding = holdingFirstUpdate(held, go);
        Hybris slow = open(config(raw).clientId(heldClient).metadataStore(holding));
        Hybris fast = open(config(raw).clientId("m-fast"));
        VersionInfo written = fast.put(C, "k", bytes("v"));
        CompletableFuture<java.util.Optional<VersionInfo>> slowDelete =
                CompletableFuture.supplyAsync(() -> slow.delete(C, "k"));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue(); // read the value, update held
        java.util.Optional<VersionInfo> fastDelete = fast.delete(C, "k");
        go.countDown();
        assertThat(fastDelete).as("the delete that committed first").isPresent();
        assertThat(slowDelete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the key was deleted when the held delete committed: a no-op").isEmpty();
        assertThat(fast.changes(C, "", io.hybris.ChangeCursor.BEGINNING, 100).changes())
                .extracting(c -> c.version().version())
                .containsExactly(written.version(), fastDelete.get().version());
        assertThat(fast.get(C, "k")).isEmpty();
        assertThat(fast.put(C, "k", bytes("again")).sequence()).isEqualTo(fastDelete.get().sequence() + 1);
    }

    /**
     * Two clients delete one value at once, without a precondition, and both updates are held while a third client
     * overwrites the value with a newer version (same sequence number, a later client id). Ordering either deletion
     * just before that write would have both claim the one value they read (of two deletes of one value, only one
     * deleted it); instead each deletes what it finds: the first to commit deletes the newer value, and the other
     * then finds the key deleted, a no-op.
     */
    @Test
    void ofTwoDeletesOvertakenByANewerWriteOneDeletesTheNewerValueAndTheOtherNothing() throws Exception {
        CountDownLatch held = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore holding = holdingFirstUpdate(held, go);
        Hybris first = open(config(raw).clientId("a-held-1").metadataStore(holding));
        Hybris second = open(config(raw).clientId("a-held-2").metadataStore(holding));
        Hybris writer = open(config(raw).clientId("z-writer"));
        VersionInfo written = writer.put(C, "k", bytes("v"));
        CompletableFuture<java.util.Optional<VersionInfo>> firstDelete =
                CompletableFuture.supplyAsync(() -> first.delete(C, "k"));
        CompletableFuture<java.util.Optional<VersionInfo>> secondDelete =
                CompletableFuture.supplyAsync(() -> second.delete(C, "k"));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue(); // both read v, both updates held
        VersionInfo newer = writer.put(C, "k", bytes("w"));
        go.countDown();

        List<VersionInfo> deletions = java.util.stream.Stream.of(firstDelete, secondDelete)
                .map(f -> f.orTimeout(AWAIT.toMillis(), TimeUnit.MILLISECONDS).join())
                .flatMap(java.util.Optional::stream).toList();
        assertThat(deletions).as("deletes that say they deleted a value").hasSize(1);
        assertThat(deletions.get(0).sequence()).as("ordered after the newer write").isEqualTo(newer.sequence() + 1);
        assertThat(writer.changes(C, "", io.hybris.ChangeCursor.BEGINNING, 100).changes())
                .extracting(c -> c.version().version())
                .containsExactly(written.version(), newer.version(), deletions.get(0).version());
        assertThat(writer.get(C, "k")).isEmpty();
    }

    @Test
    void aPutWhoseCommitLostToAnOlderWriteRetriesAndCommitsTheVersionItReturns() throws Exception {
        concurrentPuts("z-held");
    }

    @Test
    void aPutWhoseCommitLostToANewerWriteIsOrderedBeforeItAndCommitsNothing() throws Exception {
        concurrentPuts("a-held");
    }

    /**
     * Two clients put one key at once, without a precondition; {@code heldClient}'s update is held until the other's
     * write committed, and its timestamp orders after ("z-") or before ("a-") that write's (paper §4.1). A newer
     * write that lost the commit race retries over the older one and commits the version it returns; an older one
     * is ordered just before the newer write and commits nothing. Either way the key ends at the newer version.
     */
    private void concurrentPuts(String heldClient) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore holding = holdingFirstUpdate(held, go);
        Hybris slow = open(config(raw).clientId(heldClient).metadataStore(holding));
        Hybris fast = open(config(raw).clientId("m-fast"));
        VersionInfo base = fast.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> slowPut = CompletableFuture.supplyAsync(() -> slow.put(C, "k", bytes("slow")));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue(); // read base, update held
        VersionInfo fastPut = fast.put(C, "k", bytes("fast"));
        go.countDown();
        VersionInfo slowVersion = slowPut.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(slowVersion.sequence()).as("both ordered after base").isEqualTo(fastPut.sequence());
        boolean slowNewer = heldClient.compareTo("m-fast") > 0;
        VersionInfo newer = slowNewer ? slowVersion : fastPut;
        assertThat(str(fast.get(C, "k"))).isEqualTo(slowNewer ? "slow" : "fast");
        assertThat(fast.describe(C, "k")).hasValueSatisfying(v -> assertThat(v.version()).isEqualTo(newer.version()));
        assertThat(fast.changes(C, "", io.hybris.ChangeCursor.BEGINNING, 100).changes())
                .extracting(c -> c.version().version())
                .containsExactlyElementsOf(slowNewer ? List.of(base.version(), fastPut.version(), slowVersion.version())
                        : List.of(base.version(), fastPut.version()));
        // the version returned is the one to write over
        assertThat(slow.put(C, "k", bytes("next"), PutOptions.ifMatch(newer.version())).sequence())
                .isGreaterThan(newer.sequence());
    }

    @Test
    void aTransactionCommitsOnlyIfEveryPreconditionHolds() throws Exception {
        Hybris h = openPlain();
        VersionInfo a = h.put(C, "a", bytes("a1"));
        Map<String, VersionInfo> done = h.tput(C, Map.of("a", bytes("a2"), "b", bytes("b1")),
                Map.of("a", PutOptions.ifMatch(a.version()), "b", PutOptions.ifAbsent()));
        assertThat(done.keySet()).containsExactlyInAnyOrder("a", "b");
        assertThat(done.get("a")).isEqualTo(h.describe(C, "a").orElseThrow());
        assertThatThrownBy(() -> h.tput(C, Map.of("a", bytes("a3"), "b", bytes("b2")),
                Map.of("a", PutOptions.ifMatch(done.get("a").version()), "b", PutOptions.ifAbsent())))
                .isInstanceOfSatisfying(PreconditionFailedException.class, e -> {
                    assertThat(e.key()).isEqualTo("b");
                    assertThat(e.current()).hasValue(done.get("b"));
                });
        assertThat(str(h.get(C, "a"))).isEqualTo("a2");
        assertThat(str(h.get(C, "b"))).isEqualTo("b1");
        assertThatThrownBy(() -> h.tput(C, Map.of("a", bytes("x")), Map.of("zzz", PutOptions.ifAbsent())))
                .hasMessageContaining("'zzz'");

        // lost at the commit: the uploads are held while another write changes "a"
        List<GatedCloudStore> gated = raw.stream()
                .map(c -> GatedCloudStore.of(c, key -> key.contains("_txn-writer."))).toList();
        Hybris slow = open(config(gated).clientId("txn-writer"));
        VersionInfo aNow = h.describe(C, "a").orElseThrow();
        CompletableFuture<Map<String, VersionInfo>> lost = CompletableFuture.supplyAsync(() -> slow.tput(C,
                Map.of("a", bytes("a-slow"), "c", bytes("c-slow")), Map.of("a", PutOptions.ifMatch(aNow.version()))));
        await().atMost(AWAIT).until(() -> gated.stream().mapToInt(GatedCloudStore::blockedCount).sum() >= 2);
        VersionInfo winner = h.put(C, "a", bytes("a-fast"));
        gated.forEach(GatedCloudStore::open);
        assertThat(lost).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(PreconditionFailedException.class,
                        e -> assertThat(e.current()).hasValue(winner));
        assertThat(h.get(C, "c")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectsOn(raw, "_txn-writer.")).isZero());
    }

    @Test
    void eightWritersRacingIfMatchOnOneKeyWinOncePerVersion() throws Exception {
        Hybris h = openPlain();
        h.put(C, "k", bytes("w-base"));
        int writers = 8;
        int attempts = 15;
        List<String[]> wins = Collections.synchronizedList(new ArrayList<>()); // {base version, new version, value}
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < attempts; i++) {
                        VersionInfo base = h.describe(C, "k").orElseThrow();
                        String value = "w" + writer + "-" + i;
                        try {
                            VersionInfo mine = h.put(C, "k", bytes(value), PutOptions.ifMatch(base.version()));
                            wins.add(new String[] {base.version(), mine.version(), value});
                        } catch (PreconditionFailedException lostRace) {
                            assertThat(lostRace.current()).isPresent();
                            assertThat(lostRace.current().get().version()).isNotEqualTo(base.version());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        // exactly one winner per base version, and the winners form one chain ending at the current version
        assertThat(wins).isNotEmpty();
        assertThat(wins.stream().map(w -> w[0]).distinct().count()).isEqualTo(wins.size());
        java.util.Map<String, String[]> byNewVersion = new java.util.HashMap<>();
        wins.forEach(w -> byNewVersion.put(w[1], w));
        String current = h.describe(C, "k").orElseThrow().version();
        assertThat(str(h.get(C, "k"))).isEqualTo(byNewVersion.get(current)[2]);
        int chain = 0;
        for (String[] w = byNewVersion.get(current); w != null; w = byNewVersion.get(w[0])) {
            chain++;
        }
        assertThat(chain).as("every win was based on the win before it").isEqualTo(wins.size());
    }

    private long objectsOn(List<CloudStore> clouds, String fragment) {
        return clouds.stream().flatMap(c -> c.list("").stream()).map(CloudObject::key)
                .filter(k -> k.contains(fragment)).count();
    }
}
