/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A chunk whose opened bytes are fewer than its manifest says is refused, not returned: the manifest of a value
 * uploaded in parts comes from the parts' receipts, which the caller keeps and hands back unauthenticated, so a
 * receipt claiming one byte more than its chunk holds (its hash, of the stored chunk, still matching) commits a
 * manifest whose offsets disagree with the chunks. A read then fails naming the chunk, where accepting the short
 * chunk returned a value a byte short or the bytes of the next chunk at the wrong offsets. Guards the exact length
 * check in ChunkedReader.fetch.
 */
class ChunkLengthCheckTest {
    private static final int CHUNK = 64 << 10;
    private Hybris h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    /** One chunk of 64 KiB whose receipt claims 64 KiB + 1: the GET fails naming chunk 0 and both lengths. */
    @Test
    void aChunkShorterThanItsManifestSaysFailsTheRead() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId("w1")
                .metadataStore(new InMemoryMetadataStore()).deadline(Duration.ofSeconds(20))
                .timerInitial(Duration.ofSeconds(10)).timerMin(Duration.ofSeconds(10))
                .probeInterval(Duration.ZERO).probeOnOpen(false).chunkSize(CHUNK).chunkThreshold(CHUNK);
        List.of("c0", "c1", "c2").forEach(id -> b.cloud(new InMemoryCloudStore(id)));
        h = Hybris.open(b.build());
        byte[] v = new byte[CHUNK];
        new Random(41).nextBytes(v);
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start("media", "k");
        UploadedPart genuine = parts.upload(upload, 1, new ByteArrayInputStream(v), v.length);

        PartReceipt r = PartReceipt.decode(genuine.toBytes());
        assertThat(r.chunks().chunks()).hasSize(1);
        ChunkManifest.Chunk c = r.chunks().chunks().get(0);
        assertThat(c.valueBytes()).isEqualTo(CHUNK);
        ChunkManifest claimed = ChunkManifest.ofParts(List.of(c.at(c.nameIndex(), CHUNK + 1)));
        UploadedPart forged = UploadedPart.fromBytes(
                new PartReceipt(r.version(), r.part(), r.firstDurable(), r.lastDurable(), claimed).encode());
        parts.complete(upload, List.of(forged), PutOptions.none());

        Throwable t = catchThrowable(() -> h.get("media", "k"));
        assertThat(t).isInstanceOf(HybrisException.class)
                .hasMessageContaining("chunk 0 of 'k' in media")
                .hasMessageContaining("holds " + CHUNK + " bytes, its manifest says " + (CHUNK + 1));
    }
}
