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
 * The orphan sweep judges an uncommitted version by the age of its newest piece, and writers keep their pieces
 * within half of {@code hybris.gc.grace} of each other (measured on their own monotonic clocks). The age was the
 * sweeping client's clock minus the cloud's {@code lastModified}: a sweeper whose clock ran ahead of the clouds' by
 * more than half the grace (no NTP, or an NTP step forward) deleted the parts of an upload idle for less than half
 * the grace, which then completed: an acknowledged value whose chunks were gone. The age is now measured on each
 * cloud's own clock (the listed time of a marker the sweep stores first), so client clocks do not matter. And a
 * completing client whose clock lags the uploaders' (or stepped back) no longer commits parts the sweep took: it
 * checks that every chunk is still listed somewhere.
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
        return open(clientId, clock, raw);
    }

    private Hybris open(String clientId, Clock clock, List<? extends io.hybris.spi.CloudStore> clouds) {
        return opened.open(OpenedClients.config(metadata, clouds).clientId(clientId).deadline(Duration.ofSeconds(5))
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
        return Clock.offset(clouds, offset);
    }

    private long objectsOf(String key) {
        return raw.stream().flatMap(c -> c.list("").stream()).filter(o -> o.key().contains(key)).count();
    }

    @Test
    void aSweeperWhoseClockRunsAheadKeepsAnUploadIdleForLessThanHalfTheGrace() {
        Hybris uploader = open("uploader", clouds);
        Hybris sweeper = open("sweeper", skewed(Duration.ofMinutes(40))); // 40 min ahead of the clouds
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        byte[] bytes = value(2 * CHUNK, 1);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);
        long stored = objectsOf("film");
        assertThat(stored).as("two chunks on f+1 clouds").isEqualTo(4);

        clouds.advance(Duration.ofMinutes(25)); // idle for less than half the grace: allowed
        SweepReport swept = sweeper.sweepOrphans();

        assertThat(swept.deleted()).as("nothing of an upload 25 minutes old by the clouds' clocks").isZero();
        assertThat(swept.tooYoung()).isEqualTo(4);
        assertThat(objectsOf("film")).isEqualTo(stored);
        parts.complete(upload, List.of(p1), PutOptions.none());
        assertThat(uploader.get("media", "film")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes));
    }

    @Test
    void aSweeperWhoseClockSteppedForwardKeepsAnUploadInProgress() {
        MutableClock sweeperClock = new MutableClock(clouds.instant());
        Hybris writer = open("writer", clouds);
        Hybris sweeper = open("sweeper", sweeperClock);
        // an upload whose pieces are 25 minutes old by the clouds' clocks, not yet completed
        PartUploads parts = PartUploads.of(writer);
        PartUpload upload = parts.start("media", "clip");
        byte[] bytes = value(CHUNK, 2);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);
        clouds.advance(Duration.ofMinutes(25));
        sweeperClock.advance(Duration.ofMinutes(25 + 50)); // an NTP step of 50 minutes forward

        assertThat(sweeper.sweepOrphans().deleted()).isZero();
        assertThat(objectsOf("clip")).isEqualTo(2);
        parts.complete(upload, List.of(p1), PutOptions.none());
        assertThat(writer.get("media", "clip")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes));
    }

    @Test
    void anAbandonedUploadIsDeletedByTheCloudsClockEvenIfTheSweepersLagsBehind() {
        Hybris uploader = open("uploader", clouds);
        Hybris sweeper = open("sweeper", skewed(Duration.ofMinutes(-20))); // 20 min behind the clouds
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 3)), CHUNK);

        clouds.advance(GRACE.plusMinutes(1)); // abandoned: older than the grace by the clouds' clocks
        SweepReport swept = sweeper.sweepOrphans();

        assertThat(swept.deleted()).isEqualTo(2);
        assertThat(objectsOf("film")).isZero();
        assertThat(raw.stream().flatMap(c -> c.list("").stream()).toList()).as("no marker left").isEmpty();
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

    /** A cloud that refuses the sweep's clock marker (any other write goes through). */
    private static io.hybris.spi.CloudStore refusingMarkers(io.hybris.spi.CloudStore cloud) {
        return new ForwardingCloudStore(cloud) {
            @Override
            public void put(String objectKey, byte[] value) {
                if (objectKey.contains(".probe/sweep-")) {
                    throw new io.hybris.spi.TransientCloudException(id(), "injected: marker refused");
                }
                super.put(objectKey, value);
            }
        };
    }

    @Test
    void aSweeperThatCannotReadTheCloudsClocksKeepsWhatItCannotDate() {
        // no cloud takes the marker: the sweeper, two hours ahead of the clouds, cannot tell how old anything is
        Hybris uploader = open("uploader", clouds);
        Hybris sweeper = open("sweeper", skewed(Duration.ofHours(2)),
                raw.stream().map(SweepUnderClockSkewTest::refusingMarkers).toList());
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        byte[] bytes = value(CHUNK, 6);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);
        clouds.advance(Duration.ofMinutes(25));

        SweepReport swept = sweeper.sweepOrphans();
        assertThat(swept.deleted()).isZero();
        assertThat(swept.tooYoung()).as("the upload's two chunk copies, whatever the sweeper's clock says")
                .isEqualTo(2);
        assertThat(objectsOf("film")).isEqualTo(2);
        parts.complete(upload, List.of(p1), PutOptions.none());
        assertThat(uploader.get("media", "film")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes));
        assertThat(raw.stream().flatMap(c -> c.list("").stream()).filter(o -> o.key().contains(".probe/")))
                .as("no marker stored").isEmpty();
    }

    @Test
    void aCloudWhoseClockLagsStillAgesItsObjectsByItsOwnClock() {
        // the clouds' clock 40 min behind the clients': objects looked 40 min older than they are
        Hybris uploader = open("uploader", skewed(Duration.ofMinutes(40)));
        Hybris sweeper = open("sweeper", skewed(Duration.ofMinutes(40)));
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        byte[] bytes = value(CHUNK, 4);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);
        clouds.advance(Duration.ofMinutes(25));

        assertThat(sweeper.sweepOrphans().deleted()).isZero();
        parts.complete(upload, List.of(p1), PutOptions.none());
        assertThat(uploader.get("media", "film")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes));
    }
}
