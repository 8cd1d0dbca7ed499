/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.MetadataStoreException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.ValueTooLargeException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What a part that cannot be acknowledged leaves behind, and the value limit over all parts: a part whose check of
 * the key (after its chunks are stored) fails deletes its own chunks, as one refused for a completed upload does
 * ({@code PartUploadInterruptsTest}); a completion whose parts add up to one byte above
 * {@code hybris.value.max-size} commits nothing, one of exactly that size commits.
 */
class PartUploadCleanupTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /**
     * A part whose read of the key (after its chunks are stored) fails cannot tell whether its upload completed
     * meanwhile, so it fails and deletes the chunks it stored: nobody holds a receipt for them.
     */
    @Test
    void aPartWhoseCheckOfTheKeyFailsDeletesItsChunks() {
        AtomicBoolean down = new AtomicBoolean();
        ForwardingMetadataStore flaky = new ForwardingMetadataStore(fx.metadata) {
            @Override
            public Optional<VersionedValue> read(MetadataKey key) {
                if (down.get()) {
                    throw new MetadataStoreException("metadata store unreachable (test)");
                }
                return super.read(key);
            }
        };
        Hybris h = fx.open(b -> b.metadataStore(flaky));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        down.set(true);

        assertThatThrownBy(() -> parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1))
                .isInstanceOf(MetadataStoreException.class).hasMessageContaining("unreachable (test)");

        await().atMost(WAIT).untilAsserted(() -> assertThat(fx.objectsOf("k")).as("no chunk left").isEmpty());
        assertThat(fx.recorded.stream().flatMap(r -> r.calls().stream())
                .filter(c -> c.op() == RecordingCloudStore.Op.PUT).count())
                .as("its 2 chunks had been stored on 2 clouds each").isEqualTo(4);
    }

    /**
     * Each part below {@code hybris.value.max-size} but all of them one byte above it: the completion fails with
     * {@link ValueTooLargeException} naming the limit and commits nothing; parts adding up to exactly the limit
     * commit.
     */
    @Test
    void partsAddingUpToOneByteAboveTheValueLimitDoNotComplete() {
        Hybris h = fx.open(b -> b.maxValueSize(1000));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(600, 1)), 600);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(401, 2)), 401);
        UploadedPart p2Smaller = parts.upload(upload, 2, new ByteArrayInputStream(value(400, 3)), 400);

        assertThatThrownBy(() -> parts.complete(upload, List.of(p1, p2), PutOptions.none()))
                .isInstanceOfSatisfying(ValueTooLargeException.class, e -> assertThat(e.limit()).isEqualTo(1000))
                .hasMessageContaining("1001 bytes").hasMessageContaining("hybris.value.max-size=1000");
        assertThat(h.get(C, "k")).as("nothing committed").isEmpty();

        assertThat(parts.complete(upload, List.of(p1, p2Smaller), PutOptions.none()).size()).isEqualTo(1000);
        byte[] expected = new byte[1000];
        System.arraycopy(value(600, 1), 0, expected, 0, 600);
        System.arraycopy(value(400, 3), 0, expected, 600, 400);
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
    }
}
