/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.SweepReport;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Acceptance test of large values (docs/streaming.md): a client JVM killed with SIGKILL in the middle of a chunked
 * upload leaves no metadata entry; its chunks stay while they are younger than {@code hybris.gc.grace} (the upload
 * might still be running), and the sweep deletes every one of them once the grace period has passed — and nothing
 * else: neither committed values (a chunked one included) nor objects outside the prefix nor objects under the
 * prefix that Hybris did not name. The child ({@link KilledUploadChild}) and this test share a ZooKeeper server
 * (curator-test, in this JVM) and three directory clouds. The sweep measures ages on the clouds' own clocks, so the
 * grace period passes on the clouds: the test sets their files' modification times back.
 */
class KilledUploadTest {
    static final List<String> CLOUDS = List.of("c0", "c1", "c2");
    private static final String PREFIX = "hybris/";
    private static final String CHILD_ID = "killed-child";
    private static final int CHUNK = 64 << 10;
    private static final Duration GRACE = Duration.ofHours(1);
    /** Chunks the child must have stored (on f+1 clouds each) before it is killed. */
    private static final int CHUNKS_BEFORE_KILL = 12;
    /** Chunks of the value whose commit the child is killed in. */
    private static final int COMMIT_CHUNKS = 10;

    @TempDir
    Path dir;

    private SharedStores stores;
    private List<DirectoryCloudStore> clouds;
    private Hybris sweeper;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores("/killed", dir);
        clouds = stores.clouds;
        sweeper = Hybris.open(stores.client("sweeper").deadline(Duration.ofSeconds(10)).chunkSize(CHUNK)
                .chunkThreshold(CHUNK).gcGrace(GRACE).build());
    }

    @AfterEach
    void stop() throws Exception {
        if (sweeper != null) {
            sweeper.close();
        }
        if (stores != null) {
            stores.close();
        }
    }

    /** Killed while chunks are being uploaded, before the manifest: only chunks are left. */
    @Test
    void killedWhileUploadingChunks() throws Exception {
        killAndSweep("stream", Long.toString((CHUNKS_BEFORE_KILL + 4L) * CHUNK), child -> {
            child.awaitLine(l -> l.startsWith("SUPPLIED "), Duration.ofSeconds(60));
            await("the child's first " + CHUNKS_BEFORE_KILL + " chunks on f+1 clouds")
                    .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> storedChunks() >= CHUNKS_BEFORE_KILL);
        }, false);
    }

    /**
     * Killed after every chunk and the manifest are stored, while the metadata update is on the wire (held there by
     * the child's gated store): the chunks and the manifest are left, and the sweep judges them together.
     */
    @Test
    void killedWhileCommitting() throws Exception {
        killAndSweep("commit", Long.toString(COMMIT_CHUNKS * (long) CHUNK - 77),
                child -> child.awaitLine(l -> l.equals("HELD"), Duration.ofSeconds(60)), true);
    }

    /** What the test does once the child runs, before it is killed: wait for the moment to kill it. */
    private interface Moment {
        void await(ChildJvm child) throws Exception;
    }

    private void killAndSweep(String mode, String bytes, Moment moment, boolean manifestStored) throws Exception {
        // what must survive: committed values (one of them chunked) and objects that are not Hybris's
        byte[] small = "a small committed value".getBytes(StandardCharsets.UTF_8);
        byte[] large = new byte[5 * CHUNK + 123];
        new Random(3).nextBytes(large);
        sweeper.put("big", "kept-small", small);
        sweeper.put("big", "kept-large", new ByteArrayInputStream(large), large.length);
        for (CloudStore cloud : clouds) {
            cloud.put("foreign/outside.bin", ("outside the prefix on " + cloud.id()).getBytes(StandardCharsets.UTF_8));
            cloud.put(PREFIX + "README.txt", "under the prefix, not named by Hybris".getBytes(StandardCharsets.UTF_8));
            cloud.put(PREFIX + "big/stream#c0", "looks like a chunk name, is not one".getBytes(StandardCharsets.UTF_8));
        }
        Map<String, byte[]> notHybris = objects(name -> parsesAsHybris(name) == null);
        Map<String, byte[]> committed = objects(name -> parsesAsHybris(name) != null);
        assertThat(notHybris).hasSize(9);
        assertThat(committed).as("committed objects: 2 copies of kept-small, of kept-large's manifest and of its 6"
                + " chunks").hasSize(16);

        List<String> childObjects;
        try (ChildJvm child = ChildJvm.start(KilledUploadChild.class, List.of("-Xmx128m"),
                List.of(mode, stores.connectString(), "/killed", dir.resolve("clouds").toString(), CHILD_ID,
                        Integer.toString(CHUNK), bytes),
                dir.resolve("child.log"))) {
            moment.await(child);
            child.kill();
            assertThat(child.exitValue()).as("exit code of a JVM killed by SIGKILL").isEqualTo(128 + 9);
        }

        // no metadata entry: through the client, the raw store and the key listing
        assertThat(sweeper.describe("big", "stream")).isEmpty();
        assertThat(stores.metadata.read(new MetadataKey("big", "stream"))).isEmpty();
        assertThat(sweeper.list("big")).containsExactly("kept-large", "kept-small");

        // what the child left: pieces of one version; the manifest only if every chunk was stored
        childObjects = childObjects();
        List<String> manifests = childObjects.stream().filter(n -> VersionName.parse(PREFIX, n).isPresent()).toList();
        List<String> chunks = childObjects.stream().filter(n -> VersionName.parseChunk(PREFIX, n).isPresent())
                .toList();
        assertThat(childObjects.stream().map(KilledUploadTest::parsesAsHybris).distinct())
                .as("versions the killed client wrote").hasSize(1);
        if (manifestStored) {
            assertThat(manifests).as("the manifest, on f+1 clouds").hasSize(2);
            assertThat(chunks).as("every chunk, on f+1 clouds").hasSize(2 * COMMIT_CHUNKS);
        } else {
            assertThat(manifests).as("manifests (stored only after the last chunk)").isEmpty();
            assertThat(chunks).as("chunks").hasSizeGreaterThanOrEqualTo(2 * CHUNKS_BEFORE_KILL);
        }

        // within the grace period the upload might still be running: the sweep keeps everything
        SweepReport young = sweeper.sweepOrphans();
        assertThat(young.deleted()).as("deleted within the grace period (%s)", young).isZero();
        assertThat(young.tooYoung()).as("kept as too young (%s)", young).isEqualTo(childObjects.size());
        assertThat(childObjects()).containsExactlyInAnyOrderElementsOf(childObjects);

        // once the grace period has passed, every chunk goes; nothing else does
        ageClouds(GRACE.plusMinutes(10));
        SweepReport old = sweeper.sweepOrphans();
        System.out.printf("[killed-upload] %s: %d objects of the killed client (%d chunk objects, %d manifests);"
                + " sweep within the grace: %s; after it: %s%n", mode, childObjects.size(), chunks.size(),
                manifests.size(), young, old);
        assertThat(old.deleted()).as("deleted after the grace period (%s)", old).isEqualTo(childObjects.size());
        assertThat(old.failed()).isZero();
        assertThat(childObjects()).as("objects of the killed client left").isEmpty();
        assertThat(objects(name -> parsesAsHybris(name) == null)).as("objects Hybris did not name")
                .containsOnlyKeys(notHybris.keySet()).allSatisfy((k, v) -> assertThat(v).isEqualTo(notHybris.get(k)));
        assertThat(objects(name -> parsesAsHybris(name) != null)).as("Hybris's objects after the sweep")
                .containsOnlyKeys(committed.keySet());
        assertThat(sweeper.get("big", "kept-small")).hasValue(small);
        assertThat(sweeper.get("big", "kept-large")).hasValue(large);
        assertThat(sweeper.sweepOrphans().deleted()).as("a second sweep deletes nothing").isZero();
        System.out.println("[killed-upload] leftovers in the directory clouds' temporary folders: " + tmpLeftovers());
    }

    /** Makes every object of the directory clouds {@code age} older, as the clouds' clocks see it. */
    private void ageClouds(Duration age) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir.resolve("clouds"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.from(
                        Files.getLastModifiedTime(f).toInstant().minus(age)));
            }
        }
    }

    /** The child's chunk indexes stored on f+1 = 2 clouds. */
    private long storedChunks() {
        Map<Long, Integer> copies = new TreeMap<>();
        for (String name : childObjects()) {
            VersionName.parseChunk(PREFIX, name).ifPresent(c -> copies.merge(c.index(), 1, Integer::sum));
        }
        return copies.values().stream().filter(n -> n >= 2).count();
    }

    /** The names of every object the killed client wrote, once per cloud holding it. */
    private List<String> childObjects() {
        List<String> out = new ArrayList<>();
        for (CloudStore cloud : clouds) {
            for (CloudObject o : cloud.list(PREFIX)) {
                VersionName v = parsesAsHybris(o.key());
                if (v != null && v.clientId().equals(CHILD_ID)) {
                    out.add(o.key());
                }
            }
        }
        return out;
    }

    /** Every object on every cloud whose name matches, as {@code cloud:name} to bytes. */
    private Map<String, byte[]> objects(java.util.function.Predicate<String> names) {
        Map<String, byte[]> out = new TreeMap<>();
        for (CloudStore cloud : clouds) {
            for (CloudObject o : cloud.list("")) {
                if (names.test(o.key())) {
                    out.put(cloud.id() + ":" + o.key(), cloud.get(o.key(), Long.MAX_VALUE).orElseThrow());
                }
            }
        }
        return out;
    }

    /** The version a name belongs to (its own, or the chunked value's it is a chunk of); null if not Hybris's. */
    private static VersionName parsesAsHybris(String name) {
        return VersionName.parse(PREFIX, name)
                .or(() -> VersionName.parseChunk(PREFIX, name).map(VersionName.Chunk::version)).orElse(null);
    }

    private List<String> tmpLeftovers() throws java.io.IOException {
        List<String> out = new ArrayList<>();
        for (DirectoryCloudStore cloud : clouds) {
            try (var files = Files.list(cloud.root().resolve("~tmp"))) {
                files.forEach(p -> out.add(cloud.id() + ":" + p.getFileName()));
            }
        }
        return out;
    }
}
