/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.NotEnoughCloudsException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.PermanentCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * docs/streaming.md: "In every failed put, the chunks already uploaded are deleted in the background". Every chunk
 * of a put is stored, then every cloud refuses its manifest: the put fails, commits nothing, and deletes the chunks
 * it stored itself, without an orphan sweep. Guards the chunk clean-up of ChunkedWriter.store when the manifest's
 * upload fails.
 */
class FailedManifestUploadTest {
    private final StreamingFixture fx = new StreamingFixture(RefusingManifests::new);

    @AfterEach
    void close() {
        fx.close();
    }

    /** Refuses the PUT of any object that is not a chunk (a manifest, a whole value). */
    private static final class RefusingManifests extends ForwardingCloudStore {
        RefusingManifests(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (StreamingFixture.chunkIndex(objectKey).isEmpty()) {
                throw new PermanentCloudException(id(), "manifest refused: " + objectKey);
            }
            super.put(objectKey, value);
        }
    }

    /** The put fails on the manifest, and the 4 chunks it stored (2 copies each) are deleted by the put itself. */
    @Test
    void aPutWhoseManifestNoCloudTakesDeletesItsStoredChunks() {
        Hybris h = fx.open(b -> b.gcGrace(Duration.ofDays(1))); // a sweep would not delete them yet anyway
        byte[] v = value(4 * CHUNK, 31);

        Throwable thrown = catchThrowable(() -> h.put(C, "k", new ByteArrayInputStream(v), -1));

        assertThat(thrown).isInstanceOf(NotEnoughCloudsException.class)
                .hasMessageContaining("needs 2 clouds (f=1) but only 0 of 3 stored it");
        assertThat(fx.recorded.stream().mapToLong(r -> r.calls().stream()
                        .filter(c -> c.op() == RecordingCloudStore.Op.PUT
                                && StreamingFixture.chunkIndex(c.objectKey()).isPresent()).count()).sum())
                .as("chunk copies stored before the manifest").isEqualTo(8);
        assertThat(h.describe(C, "k")).isEmpty();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(fx.objectsOf("k")).isEmpty());
    }
}
