/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.ReadSettings;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A part whose stream stalls between two of its chunks for longer than the sweep's grace period: the sweep takes
 * the chunks stored before the stall (the version's newest piece was older than the grace period), so the part must
 * fail rather than be acknowledged, as a put that stalls does; otherwise completing commits a value whose first
 * chunk is gone.
 */
class StalledPartTest {
    private static final int CHUNK = 64 << 10;
    private static final Duration GRACE = Duration.ofSeconds(2);
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(30))
                .reads(ReadSettings.builder().hedge(false).build()).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .gcGrace(GRACE));
    }

    private long chunksOnClouds() {
        return raw.stream().flatMap(c -> c.list("").stream()).map(CloudObject::key).filter(k -> k.contains("#c"))
                .count();
    }

    @Test
    void aPartThatStalledPastTheGracePeriodFailsAndCommitsNothing() throws Exception {
        Hybris uploader = open("uploader");
        Hybris sweeper = open("sweeper");
        byte[] bytes = new byte[2 * CHUNK];
        new Random(1).nextBytes(bytes);
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        InputStream second = new BulkInputStream() {
            private final InputStream rest = new ByteArrayInputStream(bytes, CHUNK, CHUNK);

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                stalled.countDown();
                try {
                    if (!resume.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("never resumed");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
                return rest.read(b, off, len);
            }
        };
        PartUploads parts = PartUploads.of(uploader);
        PartUpload upload = parts.start("media", "film");
        CompletableFuture<UploadedPart> part = CompletableFuture.supplyAsync(() -> parts.upload(upload, 1,
                new SequenceInputStream(new ByteArrayInputStream(bytes, 0, CHUNK), second), 2L * CHUNK));
        assertThat(stalled.await(30, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> chunksOnClouds() == 2); // the first chunk is durable
        // the deployment's sweep, once the first chunk is older than the grace period, takes it for abandoned
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> sweeper.sweepOrphans().deleted() == 2);
        resume.countDown();

        assertThatThrownBy(part::join).cause().isInstanceOf(HybrisException.class)
                .hasMessageContaining("hybris.gc.grace");
        await().atMost(Duration.ofSeconds(30)).until(() -> chunksOnClouds() == 0);
        assertThat(uploader.describe("media", "film")).as("nothing committed").isEmpty();
    }
}
