/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.examples.sync.SyncEvent.Kind;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two sync clients, alice and bob, on two folders over one in-memory deployment (one metadata store, three
 * clouds, f=1), each with a Hybris client of its own.
 */
class SyncClientTest {
    private static final String CONTAINER = "docs";
    private static final Duration SCAN = Duration.ofMillis(200);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path a;
    @TempDir
    Path b;

    private InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<CloudStore> clouds = List.of(new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"),
            new InMemoryCloudStore("c3"));
    private final List<AutoCloseable> open = new ArrayList<>();

    /** One side: its Hybris client, its sync client and the events it reported. */
    private final class Side {
        final String name;
        final Path folder;
        final List<SyncEvent> events = new CopyOnWriteArrayList<>();
        final Hybris hybris;
        SyncClient sync;

        Side(String name, Path folder, Duration scan, boolean watch) {
            this.name = name;
            this.folder = folder;
            HybrisConfig.Builder config = HybrisConfig.builder().f(1).clientId(name).metadataStore(metadata);
            clouds.forEach(config::cloud);
            hybris = Hybris.open(config.build());
            open.add(hybris);
            sync = SyncClient.start(hybris, CONTAINER, folder,
                    SyncSettings.defaults().withScanInterval(scan).withWatchFolder(watch).withListener(events::add));
            open.add(sync);
        }

        Side(String name, Path folder) {
            this(name, folder, SCAN, true);
        }

        List<String> keys(Kind kind) {
            return events.stream().filter(e -> e.kind() == kind).map(SyncEvent::key).toList();
        }

        void stop() {
            sync.close();
            hybris.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    @Test
    void aNewFileAppearsByteIdenticalOnTheOtherSideWithoutAnEcho() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        write(a.resolve("hello.txt"), "hello, bob");

        await().atMost(WAIT).untilAsserted(() -> assertThat(b.resolve("hello.txt")).hasSameBinaryContentAs(
                a.resolve("hello.txt")));
        VersionInfo v = alice.hybris.describe(CONTAINER, "hello.txt").orElseThrow();
        assertThat(v.clientId()).isEqualTo("alice");
        assertThat(v.metadata()).containsKey(RemoteFiles.CONTENT_SHA256);
        // each side reports after its file operation: bob's file can be in place before his event is
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(alice.keys(Kind.UPLOADED)).containsExactly("hello.txt");
            assertThat(bob.keys(Kind.DOWNLOADED)).containsExactly("hello.txt");
        });
        alice.sync.scanNow(); // the echo of alice's own commit has long arrived: it downloaded nothing
        assertThat(alice.keys(Kind.DOWNLOADED)).isEmpty();
        assertThat(bob.keys(Kind.UPLOADED)).isEmpty();
    }

    @Test
    void editsPropagateBothWays() throws IOException {
        new Side("alice", a);
        new Side("bob", b);
        write(a.resolve("notes.txt"), "v1");
        awaitSame("notes.txt", "v1");

        write(a.resolve("notes.txt"), "v2 by alice");
        awaitSame("notes.txt", "v2 by alice");

        write(b.resolve("notes.txt"), "v3 by bob, longer");
        awaitSame("notes.txt", "v3 by bob, longer");
        assertThat(listing(a)).containsOnlyKeys("notes.txt");
    }

    @Test
    void aDeletionPropagates() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        write(a.resolve("gone.txt"), "soon gone");
        write(a.resolve("kept.txt"), "kept");
        awaitSame("gone.txt", "soon gone");
        awaitSame("kept.txt", "kept");

        Files.delete(a.resolve("gone.txt"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(b.resolve("gone.txt")).doesNotExist());
        assertThat(alice.hybris.describe(CONTAINER, "gone.txt")).isEmpty();
        // each client emits its event after acting (alice after her delete commits, bob after removing the file),
        // so bob's file can be gone a moment before either event
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(alice.keys(Kind.DELETED_REMOTE)).containsExactly("gone.txt");
            assertThat(bob.keys(Kind.DELETED_LOCAL)).containsExactly("gone.txt");
        });
        assertThat(b.resolve("kept.txt")).hasContent("kept");
    }

    @Test
    void aLargeFileRoundTripsStreamed() throws IOException {
        Side alice = new Side("alice", a);
        new Side("bob", b);
        Path big = a.resolve("video.bin");
        Random random = new Random(7);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(a.resolve("video.bin.partial"))) {
            for (int i = 0; i < 20; i++) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        Files.move(a.resolve("video.bin.partial"), big); // appears whole (the partial one may be synced too)

        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(b.resolve("video.bin")).exists();
            assertThat(Files.mismatch(big, b.resolve("video.bin"))).isEqualTo(-1L);
        });
        VersionInfo v = alice.hybris.describe(CONTAINER, "video.bin").orElseThrow();
        assertThat(v.size()).isEqualTo(20L << 20);
        assertThat(v.chunks()).as("stored in chunks: streamed").isGreaterThan(1);
    }

    @Test
    void concurrentEditsOfOneFileEndWithTheWinnerAndAConflictedCopyOnBothSides() throws Exception {
        Duration manual = Duration.ofHours(1); // scans only when the test says
        Side alice = new Side("alice", a, manual, false);
        Side bob = new Side("bob", b, manual, false);
        write(a.resolve("plan.txt"), "the plan");
        alice.sync.scanNow();
        awaitSame("plan.txt", "the plan");

        write(a.resolve("plan.txt"), "alice's plan");
        write(b.resolve("plan.txt"), "bob's plan, which differs");
        CompletableFuture.allOf(CompletableFuture.runAsync(alice.sync::scanNow),
                CompletableFuture.runAsync(bob.sync::scanNow)).join();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(listing(a)).hasSize(2).isEqualTo(listing(b));
        });
        String winner = Files.readString(a.resolve("plan.txt"));
        assertThat(winner).isIn("alice's plan", "bob's plan, which differs");
        Side loser = winner.equals("alice's plan") ? bob : alice;
        String copy = listing(a).keySet().stream().filter(k -> !k.equals("plan.txt")).findFirst().orElseThrow();
        assertThat(copy).matches("plan \\(conflicted copy " + loser.name + " \\d{4}-\\d\\d-\\d\\d \\d{6}\\)\\.txt");
        assertThat(Files.readString(a.resolve(copy))).isEqualTo(winner.equals("alice's plan")
                ? "bob's plan, which differs" : "alice's plan");
        // reported after the copy's upload, which the other side may have downloaded first
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(loser.keys(Kind.CONFLICT)).containsExactly("plan.txt");
            assertThat(loser.keys(Kind.UPLOADED)).contains(copy);
        });
        assertThat(alice.hybris.list(CONTAINER)).containsExactlyInAnyOrder("plan.txt", copy);
    }

    @Test
    void aRemoteChangeToAFileEditedHereKeepsTheLocalEditAsAConflictedCopy() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b, Duration.ofHours(1), false); // bob's edits stay unsynced until he scans
        write(a.resolve("plan.txt"), "the plan");
        write(a.resolve("old.txt"), "old");
        awaitSame("plan.txt", "the plan");
        awaitSame("old.txt", "old");

        write(b.resolve("plan.txt"), "bob's unsynced plan");
        write(b.resolve("old.txt"), "bob's unsynced edit of old");
        write(a.resolve("plan.txt"), "alice's plan");
        Files.delete(a.resolve("old.txt"));

        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(a)).hasSize(3).isEqualTo(listing(b)));
        assertThat(b.resolve("plan.txt")).hasContent("alice's plan");
        assertThat(b.resolve("old.txt")).as("an edit beats a deletion").hasContent("bob's unsynced edit of old");
        String copy = listing(a).keySet().stream().filter(k -> k.startsWith("plan (")).findFirst().orElseThrow();
        assertThat(copy).startsWith("plan (conflicted copy bob ");
        assertThat(a.resolve(copy)).hasContent("bob's unsynced plan");
        await().atMost(WAIT).untilAsserted(() -> assertThat(bob.keys(Kind.CONFLICT))
                .containsExactlyInAnyOrder("plan.txt", "old.txt"));
        assertThat(alice.keys(Kind.CONFLICT)).isEmpty();
    }

    @Test
    void identicalFilesOnBothSidesBeforeTheFirstSyncAreNoConflict() throws IOException {
        write(a.resolve("same.txt"), "same bytes");
        write(b.resolve("same.txt"), "same bytes");
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);

        await().atMost(WAIT).untilAsserted(() -> assertThat(alice.hybris.list(CONTAINER)).containsExactly("same.txt"));
        alice.sync.scanNow();
        bob.sync.scanNow();
        assertThat(listing(a)).isEqualTo(listing(b)).containsOnlyKeys("same.txt");
        assertThat(alice.keys(Kind.CONFLICT)).isEmpty();
        assertThat(bob.keys(Kind.CONFLICT)).isEmpty();
        assertThat(alice.keys(Kind.DOWNLOADED)).isEmpty();
        assertThat(bob.keys(Kind.DOWNLOADED)).isEmpty();
    }

    @Test
    void aRestartResumesFromTheSavedCursorAndDownloadsOnlyWhatChanged() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        write(a.resolve("one.txt"), "one");
        write(a.resolve("two.txt"), "two");
        write(a.resolve("sub/three.txt"), "three");
        awaitSame("one.txt", "one");
        awaitSame("two.txt", "two");
        awaitSame("sub/three.txt", "three");

        bob.stop();
        write(a.resolve("one.txt"), "one, edited while bob was away");
        write(a.resolve("new.txt"), "new while bob was away");
        awaitRemote(alice, "new.txt");
        awaitRemote(alice, "one.txt");

        Side bobAgain = new Side("bob", b);
        awaitSame("one.txt", "one, edited while bob was away");
        awaitSame("new.txt", "new while bob was away");
        bobAgain.sync.scanNow();
        assertThat(bobAgain.keys(Kind.DOWNLOADED)).containsExactlyInAnyOrder("one.txt", "new.txt");
        assertThat(bobAgain.keys(Kind.UPLOADED)).isEmpty();
        assertThat(bobAgain.keys(Kind.RESYNCED)).as("resumed from the saved cursor, no listing").isEmpty();
        assertThat(listing(b)).isEqualTo(listing(a));
    }

    @Test
    void aRenamePropagatesAsTheOldNameGoneAndTheNewNameByteIdentical() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        write(a.resolve("draft.txt"), "the text that moves");
        awaitSame("draft.txt", "the text that moves");

        Files.createDirectories(a.resolve("final"));
        Files.move(a.resolve("draft.txt"), a.resolve("final/report.txt"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(b))
                .isEqualTo(Map.of("final/report.txt", "the text that moves")));
        assertThat(alice.hybris.list(CONTAINER)).containsExactly("final/report.txt");
        assertThat(bob.keys(Kind.CONFLICT)).isEmpty();
        assertThat(listing(a)).isEqualTo(listing(b));
    }

    @Test
    void aClientOfflineDuring100ChangesCatchesUpFromItsCursor() throws IOException {
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        for (int i = 0; i < 10; i++) {
            write(a.resolve("f" + i + ".txt"), "v0 of " + i);
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(b)).isEqualTo(listing(a)).hasSize(10));

        bob.stop();
        int changes = 0;
        for (int round = 1; changes < 100; round++) { // 100 commits: edits, creations and deletions
            for (int i = 0; i < 10 && changes < 100; i++, changes++) {
                Path f = a.resolve("f" + i + ".txt");
                if (round % 4 == 0 && i % 3 == 0 && Files.exists(f)) {
                    Files.delete(f);
                } else {
                    write(f, "v" + round + " of " + i);
                }
            }
            alice.sync.scanNow();
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(alice.hybris.list(CONTAINER))
                .containsExactlyInAnyOrderElementsOf(listing(a).keySet()));

        Side bobAgain = new Side("bob", b);
        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(b)).isEqualTo(listing(a)));
        assertThat(bobAgain.keys(Kind.RESYNCED)).as("caught up from the saved cursor, no listing").isEmpty();
        assertThat(bobAgain.keys(Kind.UPLOADED)).isEmpty();
        assertThat(bobAgain.keys(Kind.CONFLICT)).isEmpty();
    }

    @Test
    void anExpiredCursorResyncsByListingAndDownloadsOnlyWhatChanged() throws IOException {
        metadata = new InMemoryMetadataStore(3); // the change log keeps 3 commits per container
        Side alice = new Side("alice", a);
        Side bob = new Side("bob", b);
        write(a.resolve("stable.txt"), "stable");
        awaitSame("stable.txt", "stable");

        bob.stop();
        for (int i = 0; i < 5; i++) {
            write(a.resolve("f" + i + ".txt"), "file " + i);
            awaitRemote(alice, "f" + i + ".txt");
        }

        Side bobAgain = new Side("bob", b);
        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(b)).isEqualTo(listing(a)).hasSize(6));
        assertThat(bobAgain.keys(Kind.RESYNCED)).hasSize(1);
        assertThat(bobAgain.keys(Kind.DOWNLOADED)).doesNotContain("stable.txt").hasSize(5);
    }

    @Test
    void aClientClosedWhileItResyncsAfterAnExpiredCursorLeavesNoSubscriptionBehind() throws Exception {
        metadata = new InMemoryMetadataStore(3); // the change log keeps 3 commits per container
        Side alice = new Side("alice", a);
        write(a.resolve("stable.txt"), "stable");
        awaitRemote(alice, "stable.txt");
        Side bob = new Side("bob", b);
        await().atMost(WAIT).until(() -> Files.exists(b.resolve("stable.txt")));
        bob.sync.close();
        for (int i = 0; i < 5; i++) { // bob's saved cursor falls out of the change log
            write(a.resolve("f" + i + ".txt"), "file " + i);
            awaitRemote(alice, "f" + i + ".txt");
        }
        // bob starts again: its subscription stops (expired cursor) and the scanner resyncs by listing; the resync
        // is held (in its listener) until close() waits for the scanner
        java.util.concurrent.CountDownLatch resyncing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        SyncClient again = SyncClient.start(bob.hybris, CONTAINER, b, SyncSettings.defaults().withScanInterval(SCAN)
                .withWatchFolder(false).withListener(e -> {
                    if (e.kind() == Kind.RESYNCED) {
                        resyncing.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }));
        open.add(again);
        assertThat(resyncing.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(again::close, "closer");
        closer.start();
        await().atMost(WAIT).until(() -> closer.getState() == Thread.State.TIMED_WAITING); // awaiting the scanner
        release.countDown();
        closer.join(WAIT.toMillis());
        assertThat(closer.isAlive()).isFalse();
        // closed: no subscription of bob's may follow the feed any more (bob's Hybris client stays open)
        await().atMost(WAIT).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().equals("hybris-changes-bob-" + CONTAINER) && t.isAlive()));
    }

    @Test
    void filesInNestedDirectoriesSyncAndAWholeDirectoryCanBeDeleted() throws IOException {
        Side alice = new Side("alice", a);
        new Side("bob", b);
        write(a.resolve("projects/hybris/docs/design.md"), "# design");
        write(a.resolve("projects/top.txt"), "top");
        write(a.resolve("projects/empty"), "");
        write(a.resolve("projects/résumé 2026 (final).txt"), "ça marche");
        awaitSame("projects/hybris/docs/design.md", "# design");
        awaitSame("projects/top.txt", "top");
        awaitSame("projects/empty", "");
        awaitSame("projects/résumé 2026 (final).txt", "ça marche");
        assertThat(alice.hybris.list(CONTAINER)).containsExactlyInAnyOrder("projects/hybris/docs/design.md",
                "projects/top.txt", "projects/empty", "projects/résumé 2026 (final).txt");

        deleteTree(b.resolve("projects"));
        await().atMost(WAIT).untilAsserted(() -> assertThat(listing(a)).isEmpty());
        assertThat(alice.hybris.list(CONTAINER)).isEmpty();
        assertThat(a.resolve("projects")).as("directories emptied by remote deletions go too").doesNotExist();
    }

    private void awaitSame(String key, String content) {
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(a.resolve(key)).hasContent(content);
            assertThat(b.resolve(key)).hasContent(content);
        });
    }

    private void awaitRemote(Side reader, String key) {
        String content = read(a.resolve(key));
        await().atMost(WAIT).untilAsserted(() -> assertThat(reader.hybris.get(CONTAINER, key))
                .hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo(content)));
    }

    /**
     * The synced files of {@code folder} (without the state directory), by key, with their content. The sync
     * clients keep working while it runs, so an entry that vanishes between the directory's listing and its read
     * (a download moved into place, the state file replaced, a directory deleted) is left out, not an error: the
     * assertions that use it wait for the folders to settle.
     */
    static Map<String, String> listing(Path folder) throws IOException {
        Map<String, String> files = new TreeMap<>();
        LocalFolder local = new LocalFolder(folder);
        local.walk(local.root(), dir -> { }, file -> {
            try {
                files.put(local.keyOf(file), Files.readString(file));
            } catch (NoSuchFileException vanished) {
                // deleted or replaced since its directory was read
            }
        });
        return files;
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
