/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.ErasurePolicy;
import io.hybris.HybrisConfig;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;

import java.time.Duration;
import java.util.List;

/**
 * How every in-process campaign client is configured: f = 1 over the three (decorated) clouds, a 10 s deadline,
 * values above {@link #CHUNK_THRESHOLD} stored in chunks of {@link #CHUNK_SIZE} (so a run mixes whole values with
 * chunked ones of one and two chunks), and encryption or erasure coding when the campaign asks for them.
 *
 * @param clouds  the clouds, shared by every client (they stay open when a client closes)
 * @param encrypt whether values are encrypted (a fresh data key per version, kept in metadata)
 * @param erasure whether values of at least {@link #ERASURE_THRESHOLD} bytes are erasure-coded (2 data + 1 parity
 *                chunk, one per cloud) instead of replicated
 */
record ClientConfig(List<? extends CloudStore> clouds, boolean encrypt, boolean erasure) {
    /** Every call's deadline. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    /** With erasure coding on, the smallest value that is coded (larger campaign values are, smaller are not). */
    static final long ERASURE_THRESHOLD = 8 << 10;
    /** Campaign values above this are chunked (they carry up to 64 KiB of padding). */
    static final long CHUNK_THRESHOLD = 16 << 10;
    /** The chunk size of chunked campaign values: the smallest allowed, so the larger values take two chunks. */
    static final int CHUNK_SIZE = 64 << 10;

    /** The same settings as Hybris properties, for a client in another JVM. */
    static java.util.Map<String, String> properties(boolean encrypt, boolean erasure) {
        java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put("hybris.deadline", DEADLINE.toSeconds() + "s");
        p.put("hybris.crypto.mode", encrypt ? "metadata" : "none");
        p.put("hybris.chunk.threshold", Long.toString(CHUNK_THRESHOLD));
        p.put("hybris.chunk.size", Integer.toString(CHUNK_SIZE));
        if (erasure) {
            p.put("hybris.erasure.policy", "threshold");
            p.put("hybris.erasure.k", "2");
            p.put("hybris.erasure.threshold", Long.toString(ERASURE_THRESHOLD));
        }
        return p;
    }

    /** A builder for a client over {@code store} whose garbage collector waits {@code gcGrace} before sweeping. */
    HybrisConfig.Builder builder(MetadataStore store, Duration gcGrace) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).deadline(DEADLINE)
                .timerMin(Duration.ofMillis(150)).timerInitial(Duration.ofSeconds(1)).gcGrace(gcGrace)
                .chunkThreshold(CHUNK_THRESHOLD).chunkSize(CHUNK_SIZE);
        clouds.forEach(b::cloud);
        if (encrypt) {
            b.encryption(new MetadataKeyProvider());
        }
        if (erasure) {
            b.erasurePolicy(ErasurePolicy.THRESHOLD).erasureDataChunks(2)
                    .erasureThreshold(ERASURE_THRESHOLD);
        }
        return b;
    }
}
