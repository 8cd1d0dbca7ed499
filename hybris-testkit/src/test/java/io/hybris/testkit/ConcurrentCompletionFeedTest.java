/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two completions of one upload in parts, both reading the key before either commits: the one whose update meets
 * the other's commit of the same version returns it as its own, so it must return what was committed (what the
 * change feed lists and describe returns), not the metadata it had meant to write.
 */
class ConcurrentCompletionFeedTest {
    private static final String C = "docs";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final GatedMetadataStore gated = new GatedMetadataStore(metadata);
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        gated.open();
        opened.close();
    }

    @Test
    void aCompletionThatFindsItsVersionCommittedByAConcurrentOneReturnsTheCommittedVersion() throws Exception {
        Hybris a = opened.open(OpenedClients.config(metadata, raw).clientId("a").deadline(Duration.ofSeconds(20)));
        Hybris b = opened.open(OpenedClients.config(gated, raw).clientId("b").deadline(Duration.ofSeconds(20)));
        a.put(C, "k", "old".getBytes());
        ChangeCursor from = a.latestCursor(C);
        PartUpload up = PartUploads.of(a).start(C, "k");
        byte[] part = "the value uploaded in parts".getBytes();
        UploadedPart p1 = PartUploads.of(a).upload(up, 1, new ByteArrayInputStream(part), part.length);

        CompletableFuture<VersionInfo> held = CompletableFuture.supplyAsync(() -> PartUploads.of(b)
                .complete(up, List.of(p1), PutOptions.none().withMetadata(Map.of("by", "b"))));
        assertThat(gated.awaitHeld(1, Duration.ofSeconds(10))).isTrue(); // b read the key and sent its update
        VersionInfo committed = PartUploads.of(a).complete(up, List.of(p1),
                PutOptions.none().withMetadata(Map.of("by", "a")));
        gated.open();
        VersionInfo returned = held.get(20, TimeUnit.SECONDS);

        List<Change> feed = a.changes(C, "", from, 100).changes();
        assertThat(feed).hasSize(1);
        assertThat(feed.get(0).version()).isEqualTo(committed);
        assertThat(a.describe(C, "k")).contains(committed);
        assertThat(returned.version()).isEqualTo(committed.version());
        // b's call returned the version as its own: it must be what was committed, the feed's and describe's
        assertThat(returned).isEqualTo(feed.get(0).version());
    }
}
