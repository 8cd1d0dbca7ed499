/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.ReadSettings;
import io.hybris.SweepReport;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The orphan sweep judges an uncommitted version by the age of its <em>newest</em> piece: an upload that keeps
 * adding parts (never idle for half of {@code hybris.gc.grace}) may run longer than the grace in total, and its
 * first chunks, older than the grace, must survive a sweep or the completed value loses them.
 */
class SweepJudgesByNewestPieceTest {
    private static final int CHUNK = 64 << 10;
    private static final Duration GRACE = Duration.ofHours(1);
    private final MutableClock clouds = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3, clouds);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(5))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .sweepInterval(Duration.ZERO).clock(clouds).gcGrace(GRACE));
    }

    private long objectsOf(String key) {
        return raw.stream().flatMap(c -> c.list("").stream()).filter(o -> o.key().contains(key)).count();
    }

    @Test
    void anUploadRunningLongerThanTheGraceButNeverIdleKeepsItsFirstChunks() {
        Hybris uploader = open("uploader");
        Hybris sweeper = open("sweeper");
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "long");
        List<UploadedPart> uploaded = new ArrayList<>();
        byte[] whole = new byte[3 * CHUNK];
        for (int i = 0; i < 3; i++) {
            byte[] part = new byte[CHUNK];
            new Random(i).nextBytes(part);
            System.arraycopy(part, 0, whole, i * CHUNK, CHUNK);
            uploaded.add(parts.upload(upload, i + 1, new ByteArrayInputStream(part), part.length));
            clouds.advance(Duration.ofMinutes(25)); // never idle for half the grace
        }
        // part 1 is now 75 minutes old (past the grace), part 3 only 25: the upload is in progress
        long stored = objectsOf("long");
        assertThat(stored).as("three chunks on f+1 clouds").isEqualTo(6);

        SweepReport swept = sweeper.sweepOrphans();

        assertThat(swept.deleted()).as("nothing of an upload whose newest piece is 25 minutes old").isZero();
        assertThat(objectsOf("long")).isEqualTo(stored);
        parts.complete(upload, uploaded, PutOptions.none());
        assertThat(uploader.get("media", "long")).hasValueSatisfying(v -> assertThat(v).isEqualTo(whole));
    }
}
