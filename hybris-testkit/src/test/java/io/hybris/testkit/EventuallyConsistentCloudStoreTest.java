/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.Test;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class EventuallyConsistentCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final EventuallyConsistentCloudStore eventual = EventuallyConsistentCloudStore.of(mem);

    @Test
    void aWriteIsStoredButHiddenUntilMadeVisible() {
        eventual.put("k#1_abc", bytes("v"));

        assertThat(mem.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(eventual.get("k#1_abc", 10)).isEmpty();
        assertThat(eventual.list("k")).isEmpty();
        assertThat(eventual.pendingCount()).isEqualTo(1);

        eventual.makeVisible();

        assertThat(eventual.pendingCount()).isZero();
        assertThat(eventual.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(eventual.list("k")).extracting(CloudObject::key).containsExactly("k#1_abc");
    }

    @Test
    void onlyPendingObjectsAreHidden() {
        eventual.setActive(false);
        eventual.put("k#1_abc", bytes("old"));
        eventual.setActive(true);
        eventual.put("k#2_abc", bytes("new"));

        assertThat(eventual.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("old")));
        assertThat(eventual.list("k")).extracting(CloudObject::key).containsExactly("k#1_abc");
        assertThat(eventual.pendingCount()).isEqualTo(1);
    }

    @Test
    void deletingAPendingObjectRemovesItEverywhere() {
        eventual.put("k#1_abc", bytes("v"));
        eventual.put("k#2_abc", bytes("w"));

        eventual.delete("k#1_abc");

        assertThat(eventual.pendingCount()).isEqualTo(1);
        assertThat(mem.get("k#1_abc", 10)).isEmpty();
        eventual.makeVisible();
        assertThat(eventual.get("k#1_abc", 10)).isEmpty();
        assertThat(eventual.list("k")).extracting(CloudObject::key).containsExactly("k#2_abc");
    }

    @Test
    void switchingTheFaultOffMakesLaterWritesVisibleAtOnce() {
        eventual.put("pending#1_abc", bytes("p"));
        eventual.setActive(false);

        eventual.put("k#1_abc", bytes("v"));

        assertThat(eventual.isActive()).isFalse();
        assertThat(eventual.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(eventual.get("pending#1_abc", 10)).isEmpty();
        eventual.put("pending#1_abc", bytes("q"));
        assertThat(eventual.get("pending#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("q")));
        assertThat(eventual.pendingCount()).isZero();
    }
}
