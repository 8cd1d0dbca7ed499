/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.ChangeCursor;
import io.hybris.Consistency;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener.ConflictResolution;
import io.hybris.HybrisListener.Operation;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.KeyHealth;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.ReadOptions;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.TransactionAbortedException;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deterministic interactions of the commit rules (docs/protocol.md, PUT step 4, DELETE, conditional writes, and
 * the rewrite of a scrub or migration): a DELETE overtaken by a newer value deletes it (and its copies, chunks and
 * all), a plain PUT overtaken by a conditional write or a deletion puts again (its first upload deleted once, its
 * second kept) — whether its value is small, large and in memory, or the other write is a TPUT or an upload in
 * parts — and a migration's rewrite meets a conditional write or a retrying DELETE. Each test holds one client's
 * metadata update while the others commit, then asserts what every call returned, what GET reads and which
 * objects are left on the clouds.
 */
class CommitRuleInteractionsTest {
    private static final String P = "hybris/";
    private static final String C = "c";
    private static final int CHUNK = 64 << 10;
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(4);
    private final List<InMemoryCloudStore> three = raw.subList(0, 3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, MetadataStore metadata, List<? extends CloudStore> clouds,
                        UnaryOperator<HybrisConfig.Builder> more) {
        return opened.open(more.apply(OpenedClients.config(metadata, clouds).clientId(clientId)
                .deadline(Duration.ofSeconds(10)).chunkThreshold(CHUNK).chunkSize(CHUNK)));
    }

    private Hybris open(String clientId, MetadataStore metadata, List<? extends CloudStore> clouds) {
        return open(clientId, metadata, clouds, b -> b);
    }

    // ------------------------------------------------------------------ plain PUT overtaken: put again

    /**
     * A value above the chunk threshold given as an array, or as a file, can be read again: overtaken by a write
     * ifMatch the version it read, its PUT puts again after it (as a small one does), and only the second attempt's
     * copies stay; the caller and the listener see one successful PUT.
     */
    @ParameterizedTest(name = "from a file: {0}")
    @ValueSource(booleans = {false, true})
    void aLargePutThatCanReadItsValueAgainOvertakenByAWriteIfMatchPutsAgain(boolean fromFile, @TempDir Path dir)
            throws Exception {
        EventRecorder events = new EventRecorder();
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris plain = open("a-held", holding, three, b -> b.listener(events));
        Hybris cond = open("z-cond", store, three);
        VersionInfo base = cond.put(C, "k", bytes("base"));
        byte[] large = random(3 * CHUNK + 100, 1);
        Path file = Files.write(dir.resolve("large.bin"), large);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> fromFile ? plain.put(C, "k", file)
                : plain.put(C, "k", large));
        holding.awaitHeld(1);
        VersionInfo winner = cond.put(C, "k", bytes("cond"), PutOptions.ifMatch(base.version()));
        holding.release(1);

        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(mine.sequence()).as("put again, after the conditional write").isEqualTo(winner.sequence() + 1);
        assertThat(cond.get(C, "k")).hasValue(large);
        assertThat(events.casConflicts(ConflictResolution.RETRY)).isEqualTo(1);
        assertThat(events.count(Operation.PUT, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.PUT, OperationOutcome.PRECONDITION_FAILED)).isZero();
        assertThat(events.count(Operation.PUT, OperationOutcome.ABORTED)).isZero();
        // 4 chunks and a manifest, each on f+1 clouds; the first attempt's and the replaced versions' collected
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versionsOn(three, "k")).containsExactly(mine.version());
            assertThat(objectCount(three, "k")).isEqualTo(10);
        });
    }

    /**
     * A small PUT overtaken by a deletion (same sequence number, a later client id) puts again after it: its first
     * upload is deleted exactly once from each cloud that took it, its second, committed, never.
     */
    @Test
    void aPutOvertakenByADeletionDeletesItsFirstUploadOnceAndKeepsItsSecond() throws Exception {
        List<RecordingCloudStore> recorded = three.stream().map(RecordingCloudStore::of).toList();
        EventRecorder events = new EventRecorder();
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris putter = open("a-put", holding, recorded, b -> b.listener(events));
        Hybris deleter = open("z-del", store, three);
        deleter.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> putter.put(C, "k", bytes("mine")));
        holding.awaitHeld(1);
        VersionInfo tombstone = deleter.delete(C, "k").orElseThrow();
        holding.release(1);

        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(mine.sequence()).isEqualTo(tombstone.sequence() + 1);
        assertThat(deleter.get(C, "k").map(CommitRuleInteractionsTest::str)).hasValue("mine");
        assertThat(events.casConflicts(ConflictResolution.RETRY)).isEqualTo(1);
        String committed = name("k", mine.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            Set<String> names = new TreeSet<>();
            recorded.forEach(r -> r.calls().stream().filter(c -> c.op() == RecordingCloudStore.Op.PUT)
                    .forEach(c -> names.add(c.objectKey())));
            assertThat(names).as("two attempts").hasSize(2).contains(committed);
            String first = names.stream().filter(n -> !n.equals(committed)).findFirst().orElseThrow();
            for (RecordingCloudStore r : recorded) {
                assertThat(calls(r, RecordingCloudStore.Op.DELETE, first)).as("first attempt deleted on %s", r.id())
                        .isEqualTo(calls(r, RecordingCloudStore.Op.PUT, first));
                assertThat(calls(r, RecordingCloudStore.Op.DELETE, committed)).isZero();
            }
            assertThat(versionsOn(three, "k")).containsExactly(mine.version());
            assertThat(objectCount(three, "k")).isEqualTo(2);
        });
    }

    /**
     * The other way round: the deletion's client id sorts first, so the PUT orders after it as it is and retries
     * its update over the tombstone: one upload, committed, nothing deleted.
     */
    @Test
    void aPutWhoseIdOrdersAfterTheDeletionThatOvertookItRetriesItsOwnUpload() throws Exception {
        List<RecordingCloudStore> recorded = three.stream().map(RecordingCloudStore::of).toList();
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris putter = open("z-put", holding, recorded);
        Hybris deleter = open("0-del", store, three);
        deleter.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> putter.put(C, "k", bytes("mine")));
        holding.awaitHeld(1);
        VersionInfo tombstone = deleter.delete(C, "k").orElseThrow();
        holding.release(1);

        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(mine.sequence()).as("same sequence number, ordered after by id").isEqualTo(tombstone.sequence());
        assertThat(deleter.get(C, "k").map(CommitRuleInteractionsTest::str)).hasValue("mine");
        assertThat(recorded).allSatisfy(r -> assertThat(r.count(RecordingCloudStore.Op.DELETE)).isZero());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versionsOn(three, "k")).containsExactly(mine.version());
            assertThat(objectCount(three, "k")).isEqualTo(2);
        });
    }

    /** A TPUT's key written ifMatch is marked: a plain PUT it overtook on that key puts again after it. */
    @Test
    void aPutOvertakenByATputKeyWithAPreconditionPutsAgainAfterIt() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris plain = open("a-held", holding, three);
        Hybris tx = open("z-tput", store, three);
        VersionInfo base = tx.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", bytes("plain")));
        holding.awaitHeld(1);
        Map<String, VersionInfo> committed = tx.tput(C, Map.of("k", bytes("tk"), "k2", bytes("tk2")),
                Map.of("k", PutOptions.ifMatch(base.version())));
        holding.release(1);

        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(mine.sequence()).isEqualTo(committed.get("k").sequence() + 1);
        assertThat(tx.get(C, "k").map(CommitRuleInteractionsTest::str)).hasValue("plain");
        assertThat(tx.get(C, "k2").map(CommitRuleInteractionsTest::str)).hasValue("tk2");
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versionsOn(three, "k")).containsExactly(mine.version());
            assertThat(objectCount(three, "k")).isEqualTo(2);
        });
    }

    /**
     * A TPUT without preconditions whose key was overtaken by a conditional write of the version it read aborts
     * (it cannot put again: it is one atomic update): nothing of it is visible or left on the clouds.
     */
    @Test
    void aTputOvertakenByAWriteIfMatchAbortsAndLeavesNothing() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris tx = open("a-tput", holding, three);
        Hybris cond = open("z-cond", store, three);
        VersionInfo base = cond.put(C, "k", bytes("base"));
        CompletableFuture<Map<String, VersionInfo>> tput = CompletableFuture.supplyAsync(() -> tx.tput(C,
                Map.of("k", bytes("tk"), "k2", bytes("tk2")), Map.of()));
        holding.awaitHeld(1);
        cond.put(C, "k", bytes("cond"), PutOptions.ifMatch(base.version()));
        holding.release(1);

        assertThat(tput).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOf(TransactionAbortedException.class);
        assertThat(cond.get(C, "k").map(CommitRuleInteractionsTest::str)).hasValue("cond");
        assertThat(cond.get(C, "k2")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(three).allSatisfy(c -> assertThat(c.list("").stream()
                .filter(o -> o.key().contains("_a-tput.")).toList()).isEmpty()));
    }

    /**
     * An upload in parts completed ifMatch the version a plain PUT read reserved a version 2^32 sequence numbers
     * ahead, and is marked: the PUT puts again, after it.
     */
    @Test
    void aPutOvertakenByAnUploadInPartsCompletedIfMatchPutsAgainAfterIt() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris plain = open("a-held", holding, three);
        Hybris uploader = open("z-parts", store, three);
        VersionInfo base = uploader.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", bytes("plain")));
        holding.awaitHeld(1);
        byte[] part = random(2 * CHUNK, 2);
        VersionInfo uploaded = uploadInParts(uploader, "k", part, PutOptions.ifMatch(base.version()));
        holding.release(1);

        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(uploaded.sequence()).isEqualTo(base.sequence() + (1L << 32));
        assertThat(mine.sequence()).isEqualTo(uploaded.sequence() + 1);
        assertThat(uploader.get(C, "k").map(CommitRuleInteractionsTest::str)).hasValue("plain");
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versionsOn(three, "k")).containsExactly(mine.version());
            assertThat(objectCount(three, "k")).isEqualTo(2);
        });
    }

    // ------------------------------------------------------------------ DELETE overtaken by a newer value

    /**
     * A DELETE overtaken by a newer value streamed in chunks deletes that value: its tombstone is ordered after it,
     * the change feed shows the three versions, GET finds nothing, and no copy of any version is left (the value
     * the DELETE read collected by the newer write's commit, the newer value's manifest and chunks by the
     * DELETE's).
     */
    @Test
    void aDeleteOvertakenByANewerChunkedValueDeletesItAndItsChunks() throws Exception {
        EventRecorder events = new EventRecorder();
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris deleter = open("a-del", holding, three, b -> b.listener(events));
        Hybris writer = open("z-writer", store, three);
        VersionInfo read = writer.put(C, "k", bytes("v"));
        CompletableFuture<Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(1);
        byte[] large = random(3 * CHUNK, 3);
        VersionInfo newer = writer.put(C, "k", new ByteArrayInputStream(large), large.length);
        holding.release(1);

        Optional<VersionInfo> deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(deleted).hasValueSatisfying(d -> {
            assertThat(d.sequence()).isEqualTo(newer.sequence() + 1);
            assertThat(d.clientId()).isEqualTo("a-del");
        });
        assertThat(writer.get(C, "k")).isEmpty();
        assertThat(deleter.get(C, "k")).isEmpty();
        assertThat(writer.changes(C, "", ChangeCursor.BEGINNING, 100).changes())
                .extracting(c -> c.version().version())
                .containsExactly(read.version(), newer.version(), deleted.orElseThrow().version());
        assertThat(events.casConflicts(ConflictResolution.RETRY)).isEqualTo(1);
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(three, "k")).isZero());
    }

    /**
     * The ids the other way round: the newer value's writer sorts first, so the DELETE's tombstone (same sequence
     * number) still orders after it and its update simply retries over it: it deletes it all the same.
     */
    @Test
    void aDeleteWhoseIdOrdersAfterTheNewerValueRetriesOverItAndDeletesIt() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris deleter = open("z-del", holding, three);
        Hybris writer = open("0-writer", store, three);
        writer.put(C, "k", bytes("v"));
        CompletableFuture<Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(1);
        VersionInfo newer = writer.put(C, "k", bytes("w"));
        holding.release(1);

        Optional<VersionInfo> deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(deleted).hasValueSatisfying(d -> assertThat(d.sequence()).isEqualTo(newer.sequence()));
        assertThat(writer.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(three, "k")).isZero());
    }

    /**
     * A plain PUT and a DELETE both read one value; a newer plain write overtakes both. Whichever commits first
     * decides: the PUT first is ordered just before the newer write (acknowledged, never visible), and the DELETE
     * then deletes the newer write; the DELETE first deletes the newer write, and the PUT, overtaken by that
     * deletion, puts again after it. Either way each call's result, GET and the clouds agree.
     */
    @Test
    void aPutAndADeleteOvertakenByOneNewerWriteEndAsTheirOrderOfCommitsSays() throws Exception {
        for (boolean putFirst : new boolean[] {true, false}) {
            String key = putFirst ? "put-first" : "delete-first";
            HeldUpdates.Numbered putHold = HeldUpdates.numbered(store, AWAIT, 1);
            HeldUpdates.Numbered deleteHold = HeldUpdates.numbered(store, AWAIT, 1);
            Hybris putter = open("a-put-" + key, putHold, three);
            Hybris deleter = open("a-del-" + key, deleteHold, three);
            Hybris writer = open("z-writer-" + key, store, three);
            VersionInfo read = writer.put(C, key, bytes("v"));
            CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> putter.put(C, key, bytes("p")));
            CompletableFuture<Optional<VersionInfo>> delete =
                    CompletableFuture.supplyAsync(() -> deleter.delete(C, key));
            putHold.awaitHeld(1);
            deleteHold.awaitHeld(1);
            VersionInfo newer = writer.put(C, key, bytes("w"));
            VersionInfo mine;
            Optional<VersionInfo> deleted;
            if (putFirst) {
                putHold.release(1);
                mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                deleteHold.release(1);
                deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(mine.sequence()).as("ordered just before the newer write").isEqualTo(read.sequence() + 1);
                assertThat(deleted).hasValueSatisfying(d -> assertThat(d.sequence())
                        .isEqualTo(newer.sequence() + 1));
                assertThat(writer.get(C, key)).isEmpty();
                await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(three, key)).isZero());
            } else {
                deleteHold.release(1);
                deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                putHold.release(1);
                mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(deleted).hasValueSatisfying(d -> assertThat(d.sequence())
                        .isEqualTo(newer.sequence() + 1));
                assertThat(mine.sequence()).as("put again after the deletion")
                        .isEqualTo(deleted.orElseThrow().sequence() + 1);
                assertThat(writer.get(C, key).map(CommitRuleInteractionsTest::str)).hasValue("p");
                await().atMost(AWAIT).untilAsserted(() -> {
                    assertThat(versionsOn(three, key)).containsExactly(mine.version());
                    assertThat(objectCount(three, key)).isEqualTo(2);
                });
            }
            assertThat(writer.changes(C, key, ChangeCursor.BEGINNING, 100).changes()).as(key)
                    .extracting(c -> c.version().version())
                    .containsExactlyElementsOf(putFirst
                            ? List.of(read.version(), newer.version(), deleted.orElseThrow().version())
                            : List.of(read.version(), newer.version(), deleted.orElseThrow().version(),
                                    mine.version()));
        }
    }

    /** As above, the newer value an upload in parts (2^32 sequence numbers ahead, chunks named by part). */
    @Test
    void aDeleteOvertakenByAnUploadInPartsDeletesItAndItsChunks() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris deleter = open("a-del", holding, three);
        Hybris uploader = open("z-parts", store, three);
        uploader.put(C, "k", bytes("v"));
        CompletableFuture<Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(1);
        VersionInfo uploaded = uploadInParts(uploader, "k", random(2 * CHUNK + 7, 4), PutOptions.none());
        holding.release(1);

        Optional<VersionInfo> deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(deleted).hasValueSatisfying(d -> assertThat(d.sequence()).isEqualTo(uploaded.sequence() + 1));
        assertThat(uploader.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(three, "k")).isZero());
    }

    /**
     * Read-your-writes through the value cache: a client whose own PUT is cached, and whose DELETE then retried
     * over another client's newer value, reads nothing back (neither its own old value nor the newer one).
     */
    @Test
    void readYourWritesAfterADeleteThatDeletedANewerValueFindsNothing() throws Exception {
        MapCache cache = new MapCache();
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 2); // its PUT passes, its DELETE is held
        Hybris deleter = open("a-del", holding, three, b -> b.cache(CacheSettings.builder()
                .consistency(Consistency.READ_YOUR_WRITES).cache(cache).build()));
        Hybris writer = open("z-writer", store, three);
        deleter.put(C, "k", bytes("own"));
        CompletableFuture<Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(2);
        VersionInfo newer = writer.put(C, "k", bytes("newer"));
        holding.release(2);

        assertThat(delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS))
                .hasValueSatisfying(d -> assertThat(d.sequence()).isEqualTo(newer.sequence() + 1));
        assertThat(deleter.get(C, "k", ReadOptions.readYourWrites())).isEmpty();
        assertThat(deleter.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(three, "k")).isZero());
    }

    // ------------------------------------------------------------------ a migration's rewrite

    /**
     * A write ifMatch the version a migration rewrites, committing after the rewrite, fails: the rewrite is a new
     * version (docs/scrub.md). Nothing of it is left, and the value is the rewritten one, with the old bytes.
     */
    @Test
    void aWriteIfMatchCommittingAfterARewriteOfTheVersionItReadFails() throws Exception {
        Hybris seeder = open("seeder", store, raw);
        byte[] big = random(2 * CHUNK + 10, 5);
        VersionInfo base = seeder.put(C, "big", new ByteArrayInputStream(big), big.length);
        assertThat(base.clouds()).contains("c0");
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris cond = open("0-cond", holding, raw);
        Hybris migrator = open("zzzz", store, raw);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> cond.put(C, "big", bytes("fresh"),
                PutOptions.ifMatch(base.version())));
        holding.awaitHeld(1);
        assertThat(migrate(migrator, "big")).isEqualTo(KeyHealth.Status.REPAIRED);
        VersionInfo rewritten = migrator.describe(C, "big").orElseThrow();
        assertThat(rewritten.clientId()).isEqualTo(VersionName.REWRITE_MARK + "zzzz");
        holding.release(1);

        assertThat(put).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(PreconditionFailedException.class,
                        e -> assertThat(e.current()).hasValue(rewritten));
        assertThat(migrator.get(C, "big")).hasValue(big);
        await().atMost(AWAIT).untilAsserted(() -> assertThat(raw).allSatisfy(c -> assertThat(c.list("").stream()
                .filter(o -> o.key().contains("_0-cond.")).toList()).isEmpty()));
    }

    /**
     * A DELETE overtaken by a newer value retries to delete it; a migration rewrites that value before the retry
     * commits. The retry's tombstone still orders after the rewrite (the rewrite sorts first at its sequence
     * number): it deletes the rewritten value, and nothing of any version is left.
     */
    @Test
    void aDeleteRetryingOverANewerValueThatAMigrationRewritesDeletesTheRewrite() throws Exception {
        Hybris writer = open("z-writer", store, raw);
        writer.put(C, "k", bytes("v"));
        HeldUpdates.Numbered holding = HeldUpdates.numbered(store, AWAIT, 1, 2);
        Hybris deleter = open("a-del", holding, raw);
        Hybris migrator = open("m", store, raw);
        CompletableFuture<Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(1);
        byte[] big = random(2 * CHUNK + 10, 6);
        VersionInfo newer = writer.put(C, "k", new ByteArrayInputStream(big), big.length);
        assertThat(newer.clouds()).contains("c0");
        holding.release(1);
        holding.awaitHeld(2); // the retry over the newer value
        assertThat(migrate(migrator, "k")).isEqualTo(KeyHealth.Status.REPAIRED);
        VersionInfo rewritten = migrator.describe(C, "k").orElseThrow();
        assertThat(rewritten.sequence()).isEqualTo(newer.sequence() + 1);
        holding.release(2);

        Optional<VersionInfo> deleted = delete.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(deleted).hasValueSatisfying(d -> assertThat(d.sequence()).isEqualTo(rewritten.sequence()));
        assertThat(migrator.get(C, "k")).isEmpty();
        migrator.sweepOrphans();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(objectCount(raw, "k")).isZero());
    }

    /**
     * Two migrations rewrite one value at once, each ifMatch the version both read: the first to commit wins (its
     * rewrite is the value, with the same bytes), the other is superseded, and only the winner's objects are left.
     */
    @Test
    void ofTwoMigrationsRewritingOneValueTheSecondToCommitIsSuperseded() throws Exception {
        Hybris seeder = open("seeder", store, raw);
        byte[] big = random(2 * CHUNK + 10, 7);
        VersionInfo base = seeder.put(C, "big", new ByteArrayInputStream(big), big.length);
        assertThat(base.clouds()).contains("c0");
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        // the rewrite's entry holds its writer's id, '-z-mig', as is (a placement update: the seeder's)
        MetadataStore holdingRewrite = HeldUpdates.first(store, update -> new String(update.value(),
                StandardCharsets.ISO_8859_1).contains(VersionName.REWRITE_MARK + "z-mig"), held, go, AWAIT);
        EventRecorder firstEvents = new EventRecorder();
        EventRecorder secondEvents = new EventRecorder();
        Hybris first = open("z-mig", holdingRewrite, raw, b -> b.listener(firstEvents));
        Hybris second = open("a-mig", store, raw, b -> b.listener(secondEvents));
        CompletableFuture<KeyHealth.Status> firstRun = CompletableFuture.supplyAsync(() -> migrate(first, "big"));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("the first rewrite's commit is held")
                .isTrue();
        assertThat(migrate(second, "big")).isEqualTo(KeyHealth.Status.REPAIRED);
        VersionInfo winner = second.describe(C, "big").orElseThrow();
        assertThat(winner.clientId()).isEqualTo(VersionName.REWRITE_MARK + "a-mig");
        go.countDown();

        assertThat(firstRun.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(KeyHealth.Status.SUPERSEDED);
        // maintenance is reported apart from the callers' GETs and PUTs: one REWRITE each, the superseded ABORTED
        assertThat(secondEvents.operations()).extracting(EventRecorder.OperationEvent::operation)
                .containsExactly(Operation.REWRITE, Operation.DESCRIBE); // the DESCRIBE: this test's
        assertThat(secondEvents.count(Operation.REWRITE, OperationOutcome.OK)).isEqualTo(1);
        assertThat(firstEvents.operations()).extracting(EventRecorder.OperationEvent::operation)
                .containsExactly(Operation.REWRITE);
        assertThat(firstEvents.count(Operation.REWRITE, OperationOutcome.ABORTED)).isEqualTo(1);
        assertThat(second.describe(C, "big")).hasValue(winner);
        assertThat(first.get(C, "big")).hasValue(big);
        second.sweepOrphans();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(versionsOn(raw, "big"))
                .containsExactly(winner.version()));
    }

    // ------------------------------------------------------------------ helpers

    private static VersionInfo uploadInParts(Hybris client, String key, byte[] value, PutOptions options) {
        PartUploads parts = PartUploads.of(client);
        PartUpload upload = parts.start(C, key);
        int half = value.length / 2;
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value, 0, half), half);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value, half, value.length - half), -1);
        return parts.complete(upload, List.of(p1, p2), options);
    }

    /** Migrates every copy of {@code key} off c0 onto c3; returns the key's health. */
    private static KeyHealth.Status migrate(Hybris migrator, String key) {
        List<KeyHealth> seen = new ArrayList<>();
        migrator.migrate("c0", "c3", ScrubOptions.listing().containers(C).prefix(key).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.add(health);
            }
        }));
        assertThat(seen).hasSize(1);
        return seen.get(0).status();
    }

    private static long calls(RecordingCloudStore cloud, RecordingCloudStore.Op op, String objectKey) {
        return cloud.calls().stream().filter(c -> c.op() == op && c.objectKey().equals(objectKey)).count();
    }

    private static String name(String key, String version) {
        return P + C + "/" + key + "#" + version;
    }

    /** The versions (as {@link VersionInfo#version()}) of every object of {@code key} on {@code clouds}. */
    private static Set<String> versionsOn(List<? extends CloudStore> clouds, String key) {
        return clouds.stream().flatMap(c -> c.list(P + C + "/" + key + "#").stream())
                .map(o -> VersionName.parse(P, o.key())
                        .or(() -> VersionName.parseChunk(P, o.key()).map(VersionName.Chunk::version))
                        .map(VersionName::version).orElse("unparsed " + o.key()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static long objectCount(List<? extends CloudStore> clouds, String key) {
        return clouds.stream().mapToLong(c -> c.list(P + C + "/" + key + "#").size()).sum();
    }

    private static byte[] random(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
