/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.spi.PermanentCloudException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A missing object is {@code Optional.empty()} whatever the bucket or the object is called: the SDK's message for a
 * 404 download holds the request URL (bucket and object name) after "404 Not Found", so a name with "bucket" in it
 * must not make a missing object look like a missing bucket.
 */
@Timeout(60)
class GcsMissingObjectTest {
    @Test
    void aMissingObjectIsEmptyInABucketWhoseNameSaysBucket() {
        GcsEmulator emulator = GcsEmulator.require();
        try (GcsCloudStore store = emulator.store("g", GcsEmulator.freshBucket("bucket")).build()) {
            assertThat(store.get("hybris/c/never-written#1_abc", 100)).isEmpty();
            store.put("hybris/c/written#1_abc", "here".getBytes(StandardCharsets.UTF_8));
            assertThat(store.get("hybris/c/written#1_abc", 100)).isPresent();
        }
    }

    @Test
    void aMissingObjectWhoseKeySaysBucketIsEmpty() {
        GcsEmulator emulator = GcsEmulator.require();
        try (GcsCloudStore store = emulator.store("g", GcsEmulator.freshBucket("keys")).build()) {
            assertThat(store.get("hybris/c/my-bucket-list#1_abc", 100)).isEmpty();
            assertThat(store.get("hybris/bucket/not-found#1_abc", 100)).isEmpty();
        }
    }

    @Test
    void theServicesMissingBucketMessageIsStillAMissingBucket() throws Exception {
        try (FakeGcsServer server = FakeGcsServer.start()) {
            server.respondWith(200, "");
            try (GcsCloudStore store = GcsCloudStore.builder("fake").endpoint(server.endpoint()).project("p")
                    .bucket("my-bucket").anonymous(true).build()) {
                server.respondWith(404, "No such object: my-bucket/hybris/c/bucket-not-found#1_abc");
                assertThat(store.get("hybris/c/bucket-not-found#1_abc", 10)).isEmpty();

                server.respondWith(404, "The specified bucket does not exist.");
                assertThatThrownBy(() -> store.get("hybris/c/k#1_abc", 10))
                        .isInstanceOf(PermanentCloudException.class)
                        .hasMessageContaining("bucket 'my-bucket' does not exist");
            }
        }
    }
}
