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
import io.hybris.UploadExpiredException;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The orphan sweep judges an uncommitted version by the age of its newest piece; completing an upload in parts
 * checks the receipts' times against its own clock. A completing client whose clock lags the uploaders' (or stepped
 * back) took an upload the sweep had judged abandoned for a young one and committed a value whose chunks were gone;
 * it now checks that every chunk is still listed on some cloud before it commits.
 */
class SweepUnderClockSkewTest {
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

    private Hybris open(String clientId, Clock clock) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(5))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .sweepInterval(Duration.ZERO).clock(clock).gcGrace(GRACE));
    }

    private static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    /** Clock of a client that reads {@code offset} from the clouds' clock (moves with it). */
    private Clock skewed(Duration offset) {
        return new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return clouds.instant().plus(offset);
            }
        };
    }

    private long objectsOf(String key) {
        return raw.stream().flatMap(c -> c.list("").stream()).filter(o -> o.key().contains(key)).count();
    }

    @Test
    void aCompletionWhoseClockLagsDoesNotCommitPartsTheSweepTook() {
        // the completing client's clock 40 min behind the uploader's (or stepped back by 40 min): by its clock the
        // upload was idle 25 minutes, by every other clock 65 -- past the grace, and the sweep took its chunks
        Hybris uploader = open("uploader", clouds);
        Hybris sweeper = open("sweeper", clouds);
        Hybris completer = open("completer", skewed(Duration.ofMinutes(-40)));
        PartUpload upload = PartUploads.of(uploader).start("media", "film");
        UploadedPart p1 = PartUploads.of(uploader).upload(upload, 1,
                new ByteArrayInputStream(value(2 * CHUNK, 5)), 2 * CHUNK);
        clouds.advance(Duration.ofMinutes(65));
        assertThat(sweeper.sweepOrphans().deleted()).as("the abandoned-looking upload's chunks").isEqualTo(4);

        assertThatThrownBy(() -> PartUploads.of(completer).complete(upload, List.of(p1), PutOptions.none()))
                .isInstanceOf(UploadExpiredException.class);
        assertThat(completer.describe("media", "film")).as("nothing committed").isEmpty();
        assertThat(objectsOf("film")).as("no manifest stored").isZero();
    }
}
