/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.TransactionAbortedException;
import io.hybris.VersionInfo;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.ChangeFeedRaceContract.wholeFeed;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The change feed after the commit rule's races, each held in a chosen order at the metadata store
 * ({@link HeldUpdates}; the randomized races are {@link ChangeFeedRaceContract}): a DELETE overtaken once and twice
 * by newer PUTs, two DELETEs overtaken by one PUT, a DELETE ifMatch overtaken, a plain PUT overtaken by a write
 * ifMatch, and by a deletion then a write ifAbsent, a TPUT aborted by a newer deletion. The feed lists exactly what
 * committed: never an attempt that lost.
 */
class ChangeFeedHeldRacesTest extends HybrisContractFixture {
    /** The application metadata naming the call that wrote a value. */
    private static final String CALL = "call";

    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    private Hybris held(String clientId, CountDownLatch held, CountDownLatch go) {
        MetadataStore store = HeldUpdates.first(metadata, u -> true, held, go, AWAIT);
        return open(config(raw).clientId(clientId).metadataStore(store));
    }

    private List<VersionInfo> feedOf(Hybris h, String key) {
        return wholeFeed(h).stream().filter(c -> c.key().equals(key)).map(Change::version).toList();
    }

    /** A DELETE overtaken by a newer PUT deletes it: its change carries the new tombstone's version. */
    @Test
    void aDeletionOvertakenByANewerPutListsItsNewTombstoneOnly() throws Exception {
        CountDownLatch heldOne = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris deleter = held("a-del", heldOne, go);
        Hybris putter = open(config(raw).clientId("z-put"));
        VersionInfo base = putter.put(C, "k", bytes("base"));
        CompletableFuture<Optional<VersionInfo>> deletion = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        assertThat(heldOne.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        VersionInfo newer = putter.put(C, "k", bytes("newer"));
        go.countDown();
        VersionInfo tombstone = deletion.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();

        assertThat(tombstone.isDeletion()).isTrue();
        assertThat(tombstone.sequence()).as("ordered after the newer value").isEqualTo(newer.sequence() + 1);
        assertThat(feedOf(putter, "k")).containsExactly(base, newer, tombstone);
        assertThat(putter.describe(C, "k")).isEmpty();
    }

    /** Two DELETEs overtaken by one PUT: one deletes it (one tombstone change), the other is a no-op. */
    @Test
    void twoDeletionsOvertakenByOnePutListOneTombstone() throws Exception {
        CountDownLatch heldTwo = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore store = HeldUpdates.first(metadata, u -> true, heldTwo, go, AWAIT);
        Hybris d1 = open(config(raw).clientId("a-del").metadataStore(store));
        Hybris d2 = open(config(raw).clientId("b-del").metadataStore(store));
        Hybris putter = open(config(raw).clientId("z-put"));
        VersionInfo base = putter.put(C, "k", bytes("base"));
        CompletableFuture<Optional<VersionInfo>> first = CompletableFuture.supplyAsync(() -> d1.delete(C, "k"));
        CompletableFuture<Optional<VersionInfo>> second = CompletableFuture.supplyAsync(() -> d2.delete(C, "k"));
        assertThat(heldTwo.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        VersionInfo newer = putter.put(C, "k", bytes("newer"));
        go.countDown();
        Optional<VersionInfo> r1 = first.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        Optional<VersionInfo> r2 = second.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        List<VersionInfo> tombstones = new ArrayList<>();
        r1.ifPresent(tombstones::add);
        r2.ifPresent(tombstones::add);
        assertThat(tombstones).as("one deletion deleted the newer value, the other found it deleted").hasSize(1);
        assertThat(feedOf(putter, "k")).containsExactly(base, newer, tombstones.get(0));
    }

    /** A plain PUT overtaken by a write ifMatch puts again: the retried version listed once, the first never. */
    @Test
    void aPutOvertakenByAWriteIfMatchListsOnlyItsSecondAttempt() throws Exception {
        CountDownLatch heldOne = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris plain = held("a-put", heldOne, go);
        Hybris cond = open(config(raw).clientId("z-cond"));
        VersionInfo base = cond.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", bytes("mine")));
        assertThat(heldOne.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        VersionInfo winner = cond.put(C, "k", bytes("cond"), PutOptions.ifMatch(base.version()));
        go.countDown();
        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(mine.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(feedOf(cond, "k")).containsExactly(base, winner, mine);
        assertThat(cond.describe(C, "k")).hasValue(mine);
    }

    /** A DELETE ifMatch overtaken by a newer PUT fails and lists nothing; the PUT is listed. */
    @Test
    void aDeletionIfMatchOvertakenByANewerPutListsNoTombstone() throws Exception {
        CountDownLatch heldOne = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris deleter = held("a-del", heldOne, go);
        Hybris putter = open(config(raw).clientId("z-put"));
        VersionInfo base = putter.put(C, "k", bytes("base"));
        CompletableFuture<Optional<VersionInfo>> deletion = CompletableFuture.supplyAsync(
                () -> deleter.delete(C, "k", DeleteOptions.ifMatch(base.version())));
        assertThat(heldOne.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        VersionInfo newer = putter.put(C, "k", bytes("newer"));
        go.countDown();
        assertThat(deletion).failsWithin(AWAIT).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(PreconditionFailedException.class);
        assertThat(feedOf(putter, "k")).containsExactly(base, newer);
    }

    /**
     * A DELETE overtaken by a newer PUT, and its new tombstone by a newer PUT again: it deletes the newest value,
     * and the feed lists that tombstone only (neither the first nor the second attempt's).
     */
    @Test
    void aDeletionOvertakenTwiceListsOnlyItsLastTombstone() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(metadata, AWAIT, 1, 2);
        Hybris deleter = open(config(raw).clientId("a-del").metadataStore(holding));
        Hybris putter = open(config(raw).clientId("z-put"));
        VersionInfo base = putter.put(C, "k", bytes("base"));
        CompletableFuture<Optional<VersionInfo>> deletion = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        holding.awaitHeld(1);
        VersionInfo p1 = putter.put(C, "k", bytes("p1"));
        holding.release(1);
        holding.awaitHeld(2); // the deletion of p1
        VersionInfo p2 = putter.put(C, "k", bytes("p2"));
        holding.release(2);
        VersionInfo tombstone = deletion.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();

        assertThat(tombstone.isDeletion()).isTrue();
        assertThat(tombstone.sequence()).isEqualTo(p2.sequence() + 1);
        assertThat(feedOf(putter, "k")).containsExactly(base, p1, p2, tombstone);
        assertThat(putter.get(C, "k")).isEmpty();
    }

    /**
     * A plain PUT overtaken by a deletion puts again, and that attempt is overtaken by a write ifMatch: it puts a
     * third time, and the feed lists that version only.
     */
    @Test
    void aPutOvertakenByADeletionThenByAWriteIfMatchListsOnlyItsLastAttempt() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(metadata, AWAIT, 1, 2);
        Hybris plain = open(config(raw).clientId("a-put").metadataStore(holding));
        Hybris other = open(config(raw).clientId("z-other"));
        VersionInfo base = other.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(
                () -> plain.put(C, "k", bytes("mine"), PutOptions.none().withMetadata(Map.of(CALL, "mine"))));
        holding.awaitHeld(1);
        VersionInfo tombstone = other.delete(C, "k").orElseThrow();
        holding.release(1);
        holding.awaitHeld(2); // put again, after the deletion
        VersionInfo created = other.put(C, "k", bytes("created"), PutOptions.ifAbsent());
        holding.release(2);
        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(mine.sequence()).isEqualTo(created.sequence() + 1);
        List<VersionInfo> listed = feedOf(other, "k");
        assertThat(listed).containsExactly(base, tombstone, created, mine);
        assertThat(listed.stream().filter(v -> "mine".equals(v.metadata().get(CALL)))).containsExactly(mine);
        assertThat(other.describe(C, "k")).hasValue(mine);
    }

    /** A TPUT one of whose keys a newer DELETE overtook aborts: neither key's change is listed. */
    @Test
    void aTransactionAbortedByANewerDeletionListsNothing() throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(metadata, AWAIT, 1);
        Hybris tx = open(config(raw).clientId("a-tx").metadataStore(holding));
        Hybris other = open(config(raw).clientId("z-other"));
        VersionInfo a = other.put(C, "a", bytes("a"));
        VersionInfo b = other.put(C, "b", bytes("b"));
        Map<String, byte[]> values = new LinkedHashMap<>();
        values.put("a", bytes("tx-a"));
        values.put("b", bytes("tx-b"));
        CompletableFuture<Map<String, VersionInfo>> tput = CompletableFuture.supplyAsync(() -> tx.tput(C, values));
        holding.awaitHeld(1);
        VersionInfo deleted = other.delete(C, "b").orElseThrow();
        holding.release(1);
        assertThat(tput).failsWithin(AWAIT).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(TransactionAbortedException.class);
        assertThat(wholeFeed(other).stream().map(c -> c.key() + " " + c.version().version()))
                .containsExactly("a " + a.version(), "b " + b.version(), "b " + deleted.version());
    }
}
