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
import io.hybris.UploadExpiredException;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A client with {@code hybris.gc.enabled=false} (no background deletion of superseded versions) still shares the
 * clouds with clients that sweep with {@code hybris.gc.grace}: its uploads in parts must check that they stayed
 * within half the grace period. They did not (the writer was given no grace when GC was off), so an upload idle past
 * the grace lost its parts to another client's sweep and then completed, committing a value whose chunks were gone.
 */
class IdlePartUploadWithGcOffTest {
    private static final int CHUNK = 64 << 10;
    private final MutableClock clock = new MutableClock();
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3, clock);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(boolean gcEnabled, String clientId) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(5))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .clock(clock).gcGrace(Duration.ofHours(1)).gcEnabled(gcEnabled));
    }

    @Test
    void anIdleUploadWhosePartsWereSweptMustNotCommit() {
        Hybris uploader = open(false, "uploader");
        Hybris maintenance = open(true, "sweeper"); // the deployment's periodic sweep, default settings
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        byte[] bytes = new byte[2 * CHUNK];
        new java.util.Random(1).nextBytes(bytes);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);

        clock.advance(Duration.ofHours(2)); // the upload sat idle past the grace period
        assertThat(maintenance.sweepOrphans().deleted()).as("the idle upload's chunks were swept").isPositive();

        // the same upload with gc enabled fails with UploadExpiredException (PartUploadsTest); here it commits
        assertThatThrownBy(() -> parts.complete(upload, List.of(p1), PutOptions.none()))
                .isInstanceOf(UploadExpiredException.class);
        assertThat(uploader.describe("media", "film")).as("nothing committed").isEmpty();
    }

    @Test
    void whatCompletingItAcknowledgesCannotBeRead() {
        Hybris uploader = open(false, "uploader");
        Hybris maintenance = open(true, "sweeper");
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        byte[] bytes = new byte[2 * CHUNK];
        new java.util.Random(1).nextBytes(bytes);
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(bytes), bytes.length);
        clock.advance(Duration.ofHours(2));
        maintenance.sweepOrphans();
        boolean committed;
        try {
            parts.complete(upload, List.of(p1), PutOptions.none());
            committed = true;
        } catch (UploadExpiredException expected) {
            committed = false;
        }
        if (committed) { // an acknowledged write must be readable
            assertThat(uploader.get("media", "film")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes));
        }
    }
}
