/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.DeleteOptions;
import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.PutOvertakenException;
import io.hybris.ScrubOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionName;
import io.hybris.testkit.HeldUpdates;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.UnavailableCloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The commit rule's overtaken paths (docs/protocol.md, PUT step 4, conditional writes, DELETE) on an erasure-coded
 * container, with and without envelope encryption: a plain PUT overtaken by a write ifMatch puts again, a streamed
 * one overtaken by a deletion fails with {@link PutOvertakenException}, a DELETE overtaken by a newer value deletes
 * it, and a migration's rewrite loses to a write ifMatch. Each holds the losing update until the winner committed,
 * then checks what the calls returned, that the key reads back with any one cloud down, and exactly which fragments,
 * chunks and manifests are left on every cloud once collected.
 */
class CodedOvertakenWritesTest {
    private static final String P = "hybris/";
    private static final String C = "c";
    private static final int CHUNK = 64 << 10;
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final Map<String, InMemoryCloudStore> raw = new LinkedHashMap<>();
    private final Map<String, UnavailableCloudStore> down = new LinkedHashMap<>();
    private final Map<String, RecordingCloudStore> recorded = new LinkedHashMap<>();
    private final List<Hybris> clients = new ArrayList<>();
    private final EnvelopeKeyProvider keys = EnvelopeKeyProvider.of(Map.of("kek1", EnvelopeKeyProvider.generateKek()),
            "kek1");
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch go = new CountDownLatch(1);

    CodedOvertakenWritesTest() {
        for (String id : List.of("c0", "c1", "c2", "c3")) {
            InMemoryCloudStore c = new InMemoryCloudStore(id);
            raw.put(id, c);
            UnavailableCloudStore d = UnavailableCloudStore.of(c);
            d.setActive(false);
            down.put(id, d);
            recorded.put(id, RecordingCloudStore.of(d));
        }
    }

    @AfterEach
    void close() {
        go.countDown();
        clients.forEach(Hybris::close);
    }

    private Hybris client(String id, MetadataStore store, boolean encrypted, String... clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(id).metadataStore(store)
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofSeconds(5)).chunkThreshold(CHUNK)
                .chunkSize(CHUNK).erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .probeInterval(Duration.ZERO).objectPrefix(P);
        if (encrypted) {
            b.encryption(keys);
        }
        for (String c : clouds.length == 0 ? new String[] {"c0", "c1", "c2"} : clouds) {
            b.cloud(recorded.get(c));
        }
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    private Hybris client(String id, boolean encrypted) {
        return client(id, metadata, encrypted);
    }

    /** A client whose first conditional update is held until {@link #go}. */
    private Hybris heldClient(String id, boolean encrypted, String... clouds) {
        return client(id, HeldUpdates.first(metadata, u -> true, held, go, AWAIT), encrypted, clouds);
    }

    /** A client whose first rewrite's update (written by "-" and its id) is held until {@link #go}. */
    private Hybris heldRewriter(String id, boolean encrypted, String... clouds) {
        byte[] writer = ("-" + id).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return client(id, HeldUpdates.first(metadata, u -> indexOf(u.value(), writer) >= 0, held, go, AWAIT),
                encrypted, clouds);
    }

    private static int indexOf(byte[] in, byte[] what) {
        for (int i = 0; i + what.length <= in.length; i++) {
            if (java.util.Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        return -1;
    }

    private void awaitHeld() throws InterruptedException {
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("update held").isTrue();
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    /** The object names on each cloud (only the first three: the key's clouds), by cloud. */
    private Map<String, TreeSet<String>> objects(String... clouds) {
        Map<String, TreeSet<String>> names = new TreeMap<>();
        for (String id : clouds.length == 0 ? new String[] {"c0", "c1", "c2"} : clouds) {
            TreeSet<String> set = new TreeSet<>();
            for (CloudObject o : raw.get(id).list(P)) {
                set.add(o.key());
            }
            names.put(id, set);
        }
        return names;
    }

    /** The versions any object on the clouds belongs to. */
    private TreeSet<String> versions(String... clouds) {
        TreeSet<String> v = new TreeSet<>();
        objects(clouds).values().forEach(s -> s.forEach(n -> v.add(VersionName.parse(P, n)
                .or(() -> VersionName.parseChunk(P, n).map(VersionName.Chunk::version))
                .map(VersionName::version).orElse("?" + n))));
        return v;
    }

    private static String name(String version) {
        return P + C + "/k#" + version;
    }

    /** Whether the key reads {@code expected} with each of the three clouds down in turn. */
    private void assertReadsWithAnyCloudDown(Hybris h, Optional<byte[]> expected) {
        for (String id : List.of("c0", "c1", "c2")) {
            down.get(id).setActive(true);
            try {
                Optional<byte[]> got = h.get(C, "k");
                assertThat(got.isPresent()).as("present with %s down", id).isEqualTo(expected.isPresent());
                expected.ifPresent(v -> assertThat(got.get()).as("value with %s down", id).isEqualTo(v));
            } finally {
                down.get(id).setActive(false);
            }
        }
    }

    private long deletes(String objectKey) {
        return recorded.values().stream().mapToLong(r -> r.calls().stream()
                .filter(c -> c.op() == RecordingCloudStore.Op.DELETE && c.objectKey().equals(objectKey)).count())
                .sum();
    }

    private long puts(String objectKey) {
        return recorded.values().stream().mapToLong(r -> r.calls().stream()
                .filter(c -> c.op() == RecordingCloudStore.Op.PUT && c.objectKey().equals(objectKey)).count())
                .sum();
    }

    /** Each of the 4 chunks of {@code version} deleted from the 3 clouds its fragments are on, its manifest from 2. */
    private void assertCollectedOnce(String version) {
        for (int i = 0; i < 4; i++) {
            assertThat(deletes(version + "#c" + i)).as("chunk %d of %s deleted", i, version).isEqualTo(3);
        }
        assertThat(deletes(version)).as("manifest of %s deleted", version).isEqualTo(2);
    }

    /** The versions (names without a chunk suffix) of key k whose objects {@code cloudWriterPrefix} PUT. */
    private TreeSet<String> versionsPutBy(String cloudWriterPrefix) {
        TreeSet<String> versions = new TreeSet<>();
        putNamesOf(cloudWriterPrefix).forEach(n -> versions.add(n.replaceAll("#c\\d+$", "")));
        return versions;
    }

    /** The names the held client PUT that belong to a version other than {@code kept}. */
    private TreeSet<String> putNamesOf(String cloudWriterPrefix) {
        TreeSet<String> names = new TreeSet<>();
        recorded.values().forEach(r -> r.calls().stream().filter(c -> c.op() == RecordingCloudStore.Op.PUT
                && c.objectKey().startsWith(P + C + "/k#")).forEach(c -> names.add(c.objectKey())));
        names.removeIf(n -> !n.contains("_" + cloudWriterPrefix));
        return names;
    }

    // ------------------------------------------------------------------ PUT overtaken by a write ifMatch

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aWholeCodedPutOvertakenByAWriteIfMatchPutsAgain(boolean encrypted) throws Exception {
        Hybris plain = heldClient("a-held", encrypted);
        Hybris cond = client("z-cond", encrypted);
        VersionInfo base = cond.put(C, "k", value(5000, 1));
        byte[] mine = value(7000, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", mine));
        awaitHeld();
        VersionInfo winner = cond.put(C, "k", value(6000, 3), PutOptions.ifMatch(base.version()));
        go.countDown();

        VersionInfo got = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(got.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(cond.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(mine));
        String kept = name(got.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versions()).containsExactly(got.version());
            objects().forEach((id, names) -> assertThat(names).as(id).containsExactly(kept));
        });
        TreeSet<String> attempts = putNamesOf("a-held");
        assertThat(attempts).hasSize(2).contains(kept);
        String first = attempts.first().equals(kept) ? attempts.last() : attempts.first();
        await().atMost(AWAIT).untilAsserted(() -> assertThat(deletes(first)).isEqualTo(puts(first)).isEqualTo(3));
        assertThat(deletes(kept)).isZero();
        assertReadsWithAnyCloudDown(cond, Optional.of(mine));
        assertReadsWithAnyCloudDown(plain, Optional.of(mine));
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aChunkedCodedPutFromAnArrayOvertakenByAWriteIfMatchPutsAgain(boolean encrypted) throws Exception {
        Hybris plain = heldClient("a-held", encrypted);
        Hybris cond = client("z-cond", encrypted);
        VersionInfo base = cond.put(C, "k", value(2 * CHUNK + 5, 1));
        byte[] mine = value(3 * CHUNK + 100, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", mine));
        awaitHeld();
        VersionInfo winner = cond.put(C, "k", value(2 * CHUNK + 9, 3), PutOptions.ifMatch(base.version()));
        go.countDown();

        VersionInfo got = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(got.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(cond.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(mine));
        String kept = name(got.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versions()).containsExactly(got.version());
            objects().forEach((id, names) -> assertThat(names).as(id)
                    .contains(kept + "#c0", kept + "#c1", kept + "#c2", kept + "#c3")
                    .hasSizeBetween(4, 5));
            assertThat(objects().values().stream().filter(s -> s.contains(kept)).count()).as("manifest copies")
                    .isEqualTo(2);
        });
        TreeSet<String> attempts = versionsPutBy("a-held");
        assertThat(attempts).hasSize(2).contains(kept);
        String first = attempts.first().equals(kept) ? attempts.last() : attempts.first();
        await().atMost(AWAIT).untilAsserted(() -> {
            for (int i = 0; i < 4; i++) {
                assertThat(puts(first + "#c" + i)).as("chunk %d put", i).isEqualTo(3);
            }
            assertThat(puts(first)).as("manifest put").isEqualTo(2);
            assertCollectedOnce(first);
        });
        assertThat(recorded.values().stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.DELETE && c.objectKey().startsWith(kept)).count())
                .as("deletes of the kept version").isZero();
        assertReadsWithAnyCloudDown(cond, Optional.of(mine));
        assertReadsWithAnyCloudDown(plain, Optional.of(mine));
    }

    // ------------------------------------------------------------------ streamed PUT overtaken by a deletion

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aStreamedChunkedCodedPutOvertakenByADeletionFailsAndLeavesNothing(boolean encrypted) throws Exception {
        Hybris streamer = heldClient("a-held", encrypted);
        Hybris deleter = client("z-del", encrypted);
        deleter.put(C, "k", value(2 * CHUNK + 5, 1));
        byte[] mine = value(3 * CHUNK + 100, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> streamer.put(C, "k",
                new ByteArrayInputStream(mine), mine.length));
        awaitHeld();
        VersionInfo tombstone = deleter.delete(C, "k").orElseThrow();
        go.countDown();

        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(e.getCause()).isInstanceOf(PutOvertakenException.class);
        PutOvertakenException overtaken = (PutOvertakenException) e.getCause();
        assertThat(overtaken.key()).isEqualTo("k");
        assertThat(overtaken.current()).isEmpty();
        assertThat(overtaken.getMessage()).contains("the deletion " + tombstone.version())
                .contains("nothing was committed");
        assertThat(deleter.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).isEmpty()));
        TreeSet<String> attempt = versionsPutBy("a-held");
        assertThat(attempt).hasSize(1);
        String first = attempt.first();
        assertCollectedOnce(first);
        assertReadsWithAnyCloudDown(deleter, Optional.empty());
        assertReadsWithAnyCloudDown(streamer, Optional.empty());
    }

    // ------------------------------------------------------------------ DELETE overtaken by a newer value

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aCodedDeleteOvertakenByANewerChunkedValueDeletesIt(boolean encrypted) throws Exception {
        Hybris deleter = heldClient("a-del", encrypted);
        Hybris writer = client("z-put", encrypted);
        writer.put(C, "k", value(5000, 1));
        assertThat(deleter.get(C, "k")).isPresent();
        CompletableFuture<Optional<VersionInfo>> del = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        awaitHeld();
        byte[] newer = value(3 * CHUNK + 100, 2);
        VersionInfo winner = writer.put(C, "k", new ByteArrayInputStream(newer), newer.length);
        go.countDown();

        VersionInfo tombstone = del.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
        assertThat(tombstone.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(writer.get(C, "k")).isEmpty();
        String w = name(winner.version());
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).isEmpty()));
        assertCollectedOnce(w);
        assertReadsWithAnyCloudDown(writer, Optional.empty());
        assertReadsWithAnyCloudDown(deleter, Optional.empty());
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aChunkedCodedPutOvertakenByADeleteIfMatchPutsAgain(boolean encrypted) throws Exception {
        Hybris plain = heldClient("a-held", encrypted);
        Hybris cond = client("z-cond", encrypted);
        VersionInfo base = cond.put(C, "k", value(3 * CHUNK + 1, 1));
        byte[] mine = value(3 * CHUNK + 100, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", mine));
        awaitHeld();
        VersionInfo winner = cond.delete(C, "k", DeleteOptions.ifMatch(base.version())).orElseThrow();
        go.countDown();
        VersionInfo got = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(got.sequence()).isEqualTo(winner.sequence() + 1);
        String kept = name(got.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versions()).containsExactly(got.version());
            objects().forEach((id, names) -> assertThat(names).as(id)
                    .contains(kept + "#c0", kept + "#c1", kept + "#c2", kept + "#c3"));
        });
        assertReadsWithAnyCloudDown(cond, Optional.of(mine));
        assertReadsWithAnyCloudDown(plain, Optional.of(mine));
    }

    // ------------------------------------------------------------------ migration rewrite meets a write ifMatch

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aMigrationRewriteOfACodedChunkedValueLosesToAWriteIfMatch(boolean encrypted) throws Exception {
        Hybris cond = client("z-cond", metadata, encrypted, "c0", "c1", "c2", "c3");
        VersionInfo base = cond.put(C, "k", value(3 * CHUNK + 100, 1));
        Hybris mover = heldRewriter("m-move", encrypted, "c0", "c1", "c2", "c3");
        String manifest = name(base.version());
        String from = raw.keySet().stream().filter(id -> raw.get(id).list(manifest).stream()
                .anyMatch(o -> o.key().equals(manifest))).findFirst().orElseThrow();
        String to = raw.keySet().stream().filter(id -> raw.get(id).list(manifest).isEmpty()).findFirst()
                .orElseThrow();
        CompletableFuture<io.hybris.ScrubReport> migration = CompletableFuture.supplyAsync(() ->
                mover.migrate(from, to, ScrubOptions.listing()));
        awaitHeld();
        byte[] newer = value(2 * CHUNK + 9, 3);
        VersionInfo winner = cond.put(C, "k", new ByteArrayInputStream(newer), newer.length,
                PutOptions.ifMatch(base.version()));
        go.countDown();
        io.hybris.ScrubReport report = migration.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(report.superseded()).as(report.toString()).isEqualTo(1);
        assertThat(report.degraded()).as(report.toString()).isZero();
        assertThat(cond.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(newer));
        String[] all = {"c0", "c1", "c2", "c3"};
        String kept = name(winner.version());
        // the copy left on the retired cloud is unreferenced, for the sweep (docs/scrub.md, Migration)
        await().atMost(AWAIT).untilAsserted(() -> objects(all).forEach((id, names) -> {
            names.removeIf(n -> n.startsWith(kept));
            assertThat(names).as(id).isEqualTo(id.equals(from) ? new TreeSet<>(List.of(manifest)) : Set.of());
        }));
        assertThat(mover.sweepOrphans().deleted()).as("the superseded copy left on %s", from).isEqualTo(1);
        objects(all).forEach((id, names) -> assertThat(names).as(id).allMatch(x -> x.startsWith(kept)));
        assertReadsWithAnyCloudDown(cond, Optional.of(newer));
        TreeSet<String> rewrites = versionsPutBy("-m-move");
        assertThat(rewrites).hasSize(1);
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aCodedDeleteOvertakenByANewerWholeWriteIfMatchDeletesIt(boolean encrypted) throws Exception {
        Hybris deleter = heldClient("a-del", encrypted);
        Hybris writer = client("z-put", encrypted);
        VersionInfo base = writer.put(C, "k", value(5000, 1));
        CompletableFuture<Optional<VersionInfo>> del = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        awaitHeld();
        VersionInfo winner = writer.put(C, "k", value(6000, 2), PutOptions.ifMatch(base.version()));
        go.countDown();

        VersionInfo tombstone = del.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
        assertThat(tombstone.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(writer.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).isEmpty()));
        assertThat(deletes(name(winner.version()))).isEqualTo(3);
        assertThat(deletes(name(base.version()))).isEqualTo(3);
        assertReadsWithAnyCloudDown(writer, Optional.empty());
        assertReadsWithAnyCloudDown(deleter, Optional.empty());
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aCodedDeleteIfMatchOvertakenByANewerValueFails(boolean encrypted) throws Exception {
        Hybris deleter = heldClient("a-del", encrypted);
        Hybris writer = client("z-put", encrypted);
        VersionInfo base = writer.put(C, "k", value(3 * CHUNK + 1, 1));
        CompletableFuture<Optional<VersionInfo>> del = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k",
                DeleteOptions.ifMatch(base.version())));
        awaitHeld();
        byte[] newer = value(2 * CHUNK + 2, 2);
        VersionInfo winner = writer.put(C, "k", newer);
        go.countDown();

        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> del.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(e.getCause()).isInstanceOf(PreconditionFailedException.class);
        PreconditionFailedException failed = (PreconditionFailedException) e.getCause();
        assertThat(failed.current()).hasValue(winner);
        assertThat(failed.key()).isEqualTo("k");
        String w = name(winner.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versions()).containsExactly(winner.version());
            objects().forEach((id, names) -> assertThat(names).as(id).contains(w + "#c0", w + "#c1", w + "#c2"));
        });
        assertReadsWithAnyCloudDown(writer, Optional.of(newer));
    }

    /** The migration's rewrite commits while a streamed coded PUT that read the version is held: it puts over it. */
    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aHeldStreamedPutCommitsOverAMigrationRewrite(boolean encrypted) throws Exception {
        String[] all = {"c0", "c1", "c2", "c3"};
        Hybris putter = heldClient("a-put", encrypted, all);
        Hybris mover = client("m-move", metadata, encrypted, all);
        VersionInfo base = mover.put(C, "k", value(3 * CHUNK + 100, 1));
        String manifest = name(base.version());
        String from = List.of(all).stream().filter(id -> raw.get(id).list(manifest).stream()
                .anyMatch(o -> o.key().equals(manifest))).findFirst().orElseThrow();
        String to = List.of(all).stream().filter(id -> raw.get(id).list(manifest).isEmpty()).findFirst()
                .orElseThrow();
        byte[] mine = value(2 * CHUNK + 77, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> putter.put(C, "k",
                new ByteArrayInputStream(mine), mine.length));
        awaitHeld();
        io.hybris.ScrubReport report = mover.migrate(from, to, ScrubOptions.listing());
        assertThat(report.repaired()).as(report.toString()).isEqualTo(1);
        go.countDown();
        VersionInfo got = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(got.sequence()).isEqualTo(base.sequence() + 1);
        assertThat(mover.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(mine));
        String kept = name(got.version());
        // the copy left on the retired cloud is unreferenced, for the sweep (docs/scrub.md, Migration)
        await().atMost(AWAIT).untilAsserted(() -> objects(all).forEach((id, names) -> {
            names.removeIf(n -> n.startsWith(kept));
            assertThat(names).as(id).isEqualTo(id.equals(from) ? new TreeSet<>(List.of(manifest)) : Set.of());
        }));
        assertThat(mover.sweepOrphans().deleted()).as("the superseded copy left on %s", from).isEqualTo(1);
        objects(all).forEach((id, names) -> assertThat(names).as(id).allMatch(x -> x.startsWith(kept)));
    }

    /** The migration's rewrite, held, loses to a deletion: nothing is left of the rewrite or the value. */
    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aMigrationRewriteLosesToADeletion(boolean encrypted) throws Exception {
        String[] all = {"c0", "c1", "c2", "c3"};
        Hybris other = client("z-del", metadata, encrypted, all);
        VersionInfo base = other.put(C, "k", value(3 * CHUNK + 100, 1));
        Hybris mover = heldRewriter("m-move", encrypted, all);
        String manifest = name(base.version());
        String from = List.of(all).stream().filter(id -> raw.get(id).list(manifest).stream()
                .anyMatch(o -> o.key().equals(manifest))).findFirst().orElseThrow();
        String to = List.of(all).stream().filter(id -> raw.get(id).list(manifest).isEmpty()).findFirst()
                .orElseThrow();
        CompletableFuture<io.hybris.ScrubReport> migration = CompletableFuture.supplyAsync(() ->
                mover.migrate(from, to, ScrubOptions.listing()));
        awaitHeld();
        other.delete(C, "k").orElseThrow();
        go.countDown();
        io.hybris.ScrubReport report = migration.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(report.superseded()).as(report.toString()).isEqualTo(1);
        assertThat(other.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() -> objects(all).forEach((id, names) -> assertThat(names).as(id)
                .isEqualTo(id.equals(from) ? new TreeSet<>(List.of(manifest)) : Set.of())));
        assertThat(mover.sweepOrphans().deleted()).as("the superseded copy left on %s", from).isEqualTo(1);
        objects(all).forEach((id, names) -> assertThat(names).as(id).isEmpty());
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aStreamedChunkedCodedPutOvertakenByAWriteIfMatchFailsNamingIt(boolean encrypted) throws Exception {
        Hybris streamer = heldClient("a-held", encrypted);
        Hybris cond = client("z-cond", encrypted);
        VersionInfo base = cond.put(C, "k", value(2 * CHUNK + 5, 1));
        byte[] mine = value(3 * CHUNK + 100, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> streamer.put(C, "k",
                new ByteArrayInputStream(mine), -1));
        awaitHeld();
        byte[] theirs = value(4000, 3);
        VersionInfo winner = cond.put(C, "k", theirs, PutOptions.ifMatch(base.version()));
        go.countDown();

        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(e.getCause()).isInstanceOf(PutOvertakenException.class);
        PutOvertakenException overtaken = (PutOvertakenException) e.getCause();
        assertThat(overtaken.current()).hasValue(winner);
        assertThat(overtaken.getMessage()).contains("the conditional write " + winner.version());
        String w = name(winner.version());
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).containsExactly(w)));
        assertReadsWithAnyCloudDown(cond, Optional.of(theirs));
        assertReadsWithAnyCloudDown(streamer, Optional.of(theirs));
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aCodedDeleteOvertakenByAnUploadInPartsDeletesIt(boolean encrypted) throws Exception {
        Hybris deleter = heldClient("a-del", encrypted);
        Hybris writer = client("z-put", encrypted);
        writer.put(C, "k", value(5000, 1));
        io.hybris.PartUploads parts = io.hybris.PartUploads.of(writer);
        var up = parts.start(C, "k");
        byte[] newer = value(3 * CHUNK + 100, 2);
        int half = 2 * CHUNK;
        var p1 = parts.upload(up, 1, new ByteArrayInputStream(newer, 0, half), half);
        var p2 = parts.upload(up, 2, new ByteArrayInputStream(newer, half, newer.length - half), newer.length - half);
        CompletableFuture<Optional<VersionInfo>> del = CompletableFuture.supplyAsync(() -> deleter.delete(C, "k"));
        awaitHeld();
        VersionInfo winner = parts.complete(up, List.of(p1, p2), PutOptions.none());
        assertThat(writer.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(newer));
        go.countDown();

        VersionInfo tombstone = del.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
        assertThat(tombstone.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(writer.get(C, "k")).isEmpty();
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).isEmpty()));
    }

    @ParameterizedTest(name = "encrypted={0}")
    @ValueSource(booleans = {false, true})
    void aCodedTputOvertakenByAWriteIfMatchAbortsAndLeavesNothing(boolean encrypted) throws Exception {
        HeldUpdates.Numbered holding = HeldUpdates.numbered(metadata, AWAIT, 1);
        Hybris tputter = client("a-tput", holding, encrypted);
        Hybris cond = client("z-cond", encrypted);
        VersionInfo base = cond.put(C, "k", value(5000, 1));
        Map<String, byte[]> values = new LinkedHashMap<>();
        values.put("k", value(3 * CHUNK + 100, 2));
        values.put("other", value(6000, 3));
        CompletableFuture<Map<String, VersionInfo>> tput = CompletableFuture.supplyAsync(() ->
                tputter.tput(C, values));
        holding.awaitHeld(1);
        byte[] theirs = value(4000, 4);
        VersionInfo winner = cond.put(C, "k", theirs, PutOptions.ifMatch(base.version()));
        holding.release(1);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> tput.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(e.getCause()).isInstanceOf(io.hybris.TransactionAbortedException.class);
        assertThat(cond.get(C, "other")).isEmpty();
        String w = name(winner.version());
        await().atMost(AWAIT).untilAsserted(() ->
                objects().forEach((id, names) -> assertThat(names).as(id).containsExactly(w)));
        assertReadsWithAnyCloudDown(cond, Optional.of(theirs));
        assertReadsWithAnyCloudDown(tputter, Optional.of(theirs));
        assertThat(tputter.get(C, "other")).isEmpty();
    }

    /**
     * The held PUT's fragment for one cloud is slow (held at a gate), so it goes to a fourth cloud as well; both
     * attempts' late fragments land after the race: each is deleted, and only the committed attempt's stay.
     */
    @ParameterizedTest(name = "chunked={0}")
    @ValueSource(booleans = {false, true})
    void anOvertakenCodedPutWithASlowFragmentLeavesOnlyItsSecondAttempt(boolean chunked) throws Exception {
        io.hybris.testkit.GatedCloudStore gate = io.hybris.testkit.GatedCloudStore.of(recorded.get("c0"),
                n -> n.contains("_a-held"));
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId("a-held")
                .metadataStore(HeldUpdates.first(metadata, u -> true, held, go, AWAIT))
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofMillis(50)).timerInitial(Duration.ofMillis(50))
                .chunkThreshold(CHUNK).chunkSize(CHUNK).erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2)
                .erasureCoder("java").probeInterval(Duration.ZERO).objectPrefix(P)
                .cloud(gate).cloud(recorded.get("c1")).cloud(recorded.get("c2")).cloud(recorded.get("c3"));
        Hybris plain = Hybris.open(b.build());
        clients.add(plain);
        String[] all = {"c0", "c1", "c2", "c3"};
        Hybris cond = client("z-cond", metadata, false, "c1", "c2", "c3");
        VersionInfo base = cond.put(C, "k", value(5000, 1));
        byte[] mine = value(chunked ? 2 * CHUNK + 100 : 7000, 2);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", mine));
        awaitHeld();
        VersionInfo winner = cond.put(C, "k", value(6000, 3), PutOptions.ifMatch(base.version()));
        go.countDown();
        VersionInfo got = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(got.sequence()).isEqualTo(winner.sequence() + 1);
        assertThat(gate.blockedCount()).as("late fragments held").isGreaterThan(0);
        gate.open();
        String kept = name(got.version());
        await().atMost(AWAIT).untilAsserted(() -> {
            assertThat(versions(all)).containsExactly(got.version());
            assertThat(objects("c0").get("c0")).isEmpty();
        });
        assertThat(cond.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(mine));
        for (String id : List.of("c1", "c2", "c3")) {
            down.get(id).setActive(true);
            try {
                assertThat(cond.get(C, "k")).as("%s down", id).hasValueSatisfying(v -> assertThat(v).isEqualTo(mine));
            } finally {
                down.get(id).setActive(false);
            }
        }
    }

    /**
     * A migration's rewrite reads the value it rewrites while a deletion (or an overwrite) commits and collects its
     * chunks: the rewrite's read fails, and the key is SUPERSEDED (docs/scrub.md: "A delete or overwrite that
     * commits while a value is rewritten ... wins: the key is SUPERSEDED"), not DEGRADED; nothing of the rewrite is
     * left.
     */
    @ParameterizedTest(name = "overwrite={0}")
    @ValueSource(booleans = {false, true})
    void aMigrationRewriteWhoseValueIsReplacedWhileItIsReadIsSuperseded(boolean overwrite) throws Exception {
        String[] all = {"c0", "c1", "c2", "c3"};
        Hybris other = client("z-other", metadata, false, all);
        VersionInfo base = other.put(C, "k", value(3 * CHUNK + 100, 1));
        String chunk1 = name(base.version()) + "#c1";
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch replaced = new CountDownLatch(1);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId("m-move").metadataStore(metadata)
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofSeconds(5)).chunkThreshold(CHUNK)
                .chunkSize(CHUNK).erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(2).erasureCoder("java")
                .probeInterval(Duration.ZERO).objectPrefix(P);
        for (String id : all) {
            b.cloud(new io.hybris.testkit.ForwardingCloudStore(recorded.get(id)) {
                @Override
                public Optional<byte[]> get(String objectKey, long maxBytes) {
                    // the scrub reads on the calling thread; the rewrite's read of the value, on I/O threads
                    if (objectKey.equals(chunk1) && Thread.currentThread().getName().contains("-io-")) {
                        reading.countDown();
                        try {
                            replaced.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return super.get(objectKey, maxBytes);
                }
            });
        }
        Hybris mover = Hybris.open(b.build());
        clients.add(mover);
        String manifest = name(base.version());
        String from = List.of(all).stream().filter(id -> raw.get(id).list(chunk1).stream()
                .anyMatch(o -> o.key().equals(chunk1))).findFirst().orElseThrow();
        String to = List.of(all).stream().filter(id -> raw.get(id).list(chunk1).isEmpty()).findFirst()
                .orElseThrow();
        List<io.hybris.KeyHealth> health = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<io.hybris.ScrubReport> migration = CompletableFuture.supplyAsync(() ->
                mover.migrate(from, to, ScrubOptions.listing().listener(new io.hybris.ScrubListener() {
                    @Override
                    public void key(io.hybris.KeyHealth h) {
                        health.add(h);
                    }
                })));
        assertThat(reading.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("rewrite reading chunk 1").isTrue();
        VersionInfo winner = overwrite ? other.put(C, "k", value(5000, 2)) : other.delete(C, "k").orElseThrow();
        // its chunks collected (a manifest copy the migration moved off `from` may stay there, for the sweep)
        await().atMost(AWAIT).untilAsserted(() -> objects(all).values().forEach(names ->
                assertThat(names).noneMatch(n -> n.startsWith(manifest + "#c"))));
        replaced.countDown();
        io.hybris.ScrubReport report = migration.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(health).hasSize(1);
        assertThat(health.get(0).status()).as(health.get(0).toString()).isEqualTo(io.hybris.KeyHealth.Status.SUPERSEDED);
        assertThat(report.superseded()).isEqualTo(1);
        assertThat(report.degraded()).isZero();
        String kept = name(winner.version());
        mover.sweepOrphans();
        await().atMost(AWAIT).untilAsserted(() -> objects(all).forEach((id, names) ->
                assertThat(names).as(id).allMatch(n -> overwrite && n.equals(kept))));
    }
}
