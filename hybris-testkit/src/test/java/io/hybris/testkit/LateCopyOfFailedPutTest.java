/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.NotEnoughCloudsException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A PUT that failed (more than {@code f} clouds down) while its copy to the one good cloud was still on the wire:
 * the copy lands after the failure and is deleted at once, as {@code HybrisContract.putFailsCleanly...} expects on
 * every backend. It was left for the orphan sweep (an hour by default) once late copies of versions that "may still
 * commit" were kept for the sake of the manifests of uploads in parts, which a repeated completion stores under the
 * same name; a failed PUT's names are its own. Found on the emulators, where the copy is slower than the failures.
 */
class LateCopyOfFailedPutTest {
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    @Test
    void theCopyLandingAfterThePutFailedIsDeleted() {
        GatedCloudStore good = GatedCloudStore.of(raw.get(2), k -> k.contains("k#"));
        RecordingCloudStore recorded = RecordingCloudStore.of(good);
        Hybris h = opened.open(OpenedClients.config(new InMemoryMetadataStore(),
                List.of(UnavailableCloudStore.of(raw.get(0)), UnavailableCloudStore.of(raw.get(1)), recorded))
                .deadline(Duration.ofSeconds(10)));

        assertThatThrownBy(() -> h.put("photos", "k", "v".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(NotEnoughCloudsException.class);
        assertThat(good.awaitBlocked(1, Duration.ofSeconds(10))).as("the good cloud's copy still on the wire").isTrue();
        good.open();

        // a call is recorded as it starts: the deletion has ended once the copy is gone
        await().atMost(Duration.ofSeconds(10)).until(() -> recorded.count(RecordingCloudStore.Op.DELETE, "k#") == 1
                && raw.get(2).list("").isEmpty());
        assertThat(h.describe("photos", "k")).isEmpty();
    }
}
