/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.hybris.testkit.StreamingFixture.C;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Edges of the write and read paths that a hand-made mutation hunt found untested: each test names the rule it pins.
 */
class WriteReadPathEdgesTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    /**
     * ifMatch names a live version: the version of a deletion (what {@code delete} returns) is not a value, so a
     * write or a delete ifMatch it fails, "it has no value", and the key stays deleted.
     */
    @Test
    void ifMatchTheVersionOfADeletionFailsTheKeyHasNoValue() {
        Hybris h = fx.open();
        h.put(C, "k", new byte[] {1});
        VersionInfo deletion = h.delete(C, "k").orElseThrow();
        assertThatThrownBy(() -> h.put(C, "k", new byte[] {2}, PutOptions.ifMatch(deletion.version())))
                .isInstanceOf(PreconditionFailedException.class).hasMessageContaining("it has no value");
        assertThatThrownBy(() -> h.delete(C, "k", DeleteOptions.ifMatch(deletion.version())))
                .isInstanceOf(PreconditionFailedException.class).hasMessageContaining("it has no value");
        assertThat(h.get(C, "k")).isEmpty();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(fx.objectsOf("k")).as("the deleted value collected, nothing uploaded by the failed write")
                        .isEmpty());
    }

    /**
     * Two PUTs of one client (one client shared by threads) that read the same version choose timestamps that differ
     * only in their write ids. The later call (the higher write id) commits first; the earlier one, meeting a newer
     * timestamp, is complete, ordered just before it: the value stays the later call's. Were the write id left out of
     * the order, the earlier call would take the other's timestamp for an older one and commit over it.
     */
    @Test
    void aPutOfTheSameClientMeetingItsOwnLaterCallsCommitIsOrderedBeforeIt() throws Exception {
        HeldUpdates.Numbered held = HeldUpdates.numbered(fx.metadata, java.time.Duration.ofSeconds(20), 1);
        Hybris h = fx.open(b -> b.metadataStore(held));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<VersionInfo> first = pool.submit(() -> h.put(C, "k", new byte[] {1}));
            held.awaitHeld(1); // its update is held: the key still reads as absent
            VersionInfo second = h.put(C, "k", new byte[] {2});
            held.release(1);
            VersionInfo firstDone = first.get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(firstDone.sequence()).isEqualTo(1);
            assertThat(second.sequence()).isEqualTo(1);
            assertThat(firstDone.version()).isNotEqualTo(second.version());
            assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).containsExactly(2));
            assertThat(h.describe(C, "k")).hasValueSatisfying(d -> assertThat(d.version())
                    .isEqualTo(second.version()));
        } finally {
            pool.shutdownNow();
        }
    }
}
