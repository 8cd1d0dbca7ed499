/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Completing an upload in parts deletes the chunks of parts it left out (here: a part uploaded twice, the first
 * attempt replaced). A cloud that fails that clean-up keeps them, and the orphan sweep keeps every chunk of a current
 * version: without more, they stayed for as long as the value is current. The client remembers the failed clean-up
 * and its next sweeps try again.
 */
class LeftoverPartsSweptTest {
    /** Fails listings and deletions while active. */
    private static final class RefusingCleanups extends FaultInjectingCloudStore {
        final AtomicInteger refused = new AtomicInteger();

        RefusingCleanups(CloudStore delegate) {
            super(delegate);
            setActive(false);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            if (isActive()) {
                refused.incrementAndGet();
                throw new TransientCloudException(id(), "injected: listing refused");
            }
            return super.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            if (isActive()) {
                refused.incrementAndGet();
                throw new TransientCloudException(id(), "injected: deletion refused");
            }
            super.delete(objectKey);
        }
    }

    private final Map<String, RefusingCleanups> faults = new HashMap<>();
    private final StreamingFixture fx = new StreamingFixture(c -> {
        RefusingCleanups f = new RefusingCleanups(c);
        faults.put(c.id(), f);
        return f;
    });

    @AfterEach
    void close() {
        fx.close();
    }

    /** What {@link #completedWithAFailedCleanup} left: the failing cloud, the leftover chunks there, all copies'. */
    private record Leftover(String cloud, List<String> names, java.util.Set<String> clouds) {
    }

    private static byte[] expected() {
        byte[] expected = new byte[CHUNK + 100];
        System.arraycopy(value(CHUNK, 1), 0, expected, 0, CHUNK);
        System.arraycopy(value(100, 22), 0, expected, CHUNK, 100);
        return expected;
    }

    /**
     * Uploads part 1, part 2 twice (the first attempt replaced), and completes with a cloud holding the first attempt
     * refusing the clean-up; returns once the clean-up failed there.
     */
    private Leftover completedWithAFailedCleanup(Hybris hybris) {
        PartUploads parts = PartUploads.of(hybris);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        Map<String, List<String>> before = fx.objects();
        parts.upload(upload, 2, new ByteArrayInputStream(value(100, 2)), 100);
        Map<String, List<String>> replacedAt = new HashMap<>();
        fx.objects().forEach((cloud, names) -> {
            List<String> added = new ArrayList<>(names);
            added.removeAll(before.get(cloud));
            if (!added.isEmpty()) {
                replacedAt.put(cloud, added);
            }
        });
        assertThat(replacedAt).as("the first attempt of part 2 is stored on f+1 clouds").hasSize(2);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(100, 22)), 100);
        String failing = replacedAt.keySet().iterator().next();
        List<String> leftover = replacedAt.get(failing);
        faults.get(failing).setActive(true);

        parts.complete(upload, List.of(p1, p2), PutOptions.none());
        // refused twice: the completion's check that its chunks are still stored (before it commits), then the
        // clean-up's listing (after it, in the background)
        await().atMost(Duration.ofSeconds(10)).until(() -> faults.get(failing).refused.get() >= 2);
        faults.get(failing).setActive(false);
        assertThat(fx.objects().get(failing)).as("the clean-up failed there").containsAll(leftover);
        return new Leftover(failing, leftover, replacedAt.keySet());
    }

    @Test
    void chunksOfAReplacedPartThatACloudFailedToDeleteGoAtTheNextSweep() {
        Hybris hybris = fx.open(b -> b.sweepInterval(Duration.ZERO));
        Leftover left = completedWithAFailedCleanup(hybris);

        // a sweep may start before the failed clean-up is remembered; one after it deletes the leftover
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            hybris.sweepOrphans();
            return fx.objects().get(left.cloud()).stream().noneMatch(left.names()::contains);
        });
        assertThat(hybris.get(C, "k")).hasValue(expected());
        for (String other : left.clouds()) {
            assertThat(fx.objects().get(other)).noneMatch(left.names()::contains);
        }
    }

    /**
     * The same, with the completing client closed before a sweep (or killed): the failed clean-up, remembered in its
     * memory only, is forgotten. Another client's sweep used to keep the leftover for as long as the value is current
     * (every chunk of a current version counted as referenced); it now reads the version's manifest and deletes the
     * chunks the manifest does not name, and only those.
     */
    @Test
    void chunksOfAReplacedPartGoAtAnotherClientsSweepOnceTheCompletingClientIsGone() {
        Hybris completing = fx.open(b -> b.sweepInterval(Duration.ZERO));
        Leftover left = completedWithAFailedCleanup(completing);
        completing.close();
        Map<String, List<String>> before = fx.objects();

        Hybris sweeper = fx.open(b -> b.clientId("sweeper").sweepInterval(Duration.ZERO));
        io.hybris.SweepReport report = sweeper.sweepOrphans();

        assertThat(report.deleted()).as(report.toString()).isEqualTo(left.names().size());
        Map<String, List<String>> after = fx.objects();
        after.forEach((cloud, names) -> {
            List<String> gone = new ArrayList<>(before.get(cloud));
            gone.removeAll(names);
            assertThat(gone).as("deleted from " + cloud)
                    .containsExactlyInAnyOrderElementsOf(cloud.equals(left.cloud()) ? left.names() : List.of());
        });
        assertThat(sweeper.get(C, "k")).hasValue(expected());
        assertThat(sweeper.sweepOrphans().deleted()).as("nothing more to delete").isZero();
    }

    /**
     * The sweep takes a manifest only if it matches the metadata hash: a copy that does not (here another upload's
     * manifest, well-formed, over the first copy) names other chunks, and trusting it would delete the value's own.
     */
    @Test
    void aManifestCopyThatDoesNotMatchTheMetadataHashNamesNothing() {
        Hybris hybris = fx.open(b -> b.sweepInterval(Duration.ZERO));
        PartUploads parts = PartUploads.of(hybris);
        io.hybris.VersionInfo[] done = new io.hybris.VersionInfo[2];
        String[] keys = {"k", "other"};
        for (int i = 0; i < 2; i++) {
            PartUpload upload = parts.start(C, keys[i]);
            UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
            UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(100, 22)), 100);
            done[i] = parts.complete(upload, List.of(p1, p2), PutOptions.none());
        }
        String first = done[0].clouds().get(0);
        io.hybris.cloud.InMemoryCloudStore cloud = fx.raw.stream().filter(c -> c.id().equals(first)).findFirst()
                .orElseThrow();
        String manifest = io.hybris.spi.VersionName.keyPrefix(StreamingFixture.PREFIX, C, "k") + done[0].version();
        String foreign = io.hybris.spi.VersionName.keyPrefix(StreamingFixture.PREFIX, C, "other") + done[1].version();
        String foreignHolder = done[1].clouds().get(0);
        byte[] otherManifest = fx.raw.stream().filter(c -> c.id().equals(foreignHolder)).findFirst().orElseThrow()
                .get(foreign, Long.MAX_VALUE).orElseThrow();
        cloud.put(manifest, otherManifest);
        Map<String, List<String>> before = fx.objects();

        io.hybris.SweepReport report = hybris.sweepOrphans();

        assertThat(report.deleted()).as(report.toString()).isZero();
        assertThat(fx.objects()).isEqualTo(before);
        assertThat(fx.open(b -> b.clientId("reader")).get(C, "k")).hasValue(expected());
    }
}
