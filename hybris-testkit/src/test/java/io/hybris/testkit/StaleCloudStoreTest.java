/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import org.junit.jupiter.api.Test;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class StaleCloudStoreTest {
    private static final String K = "hybris/photos/cat.jpg#";

    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final StaleCloudStore stale = StaleCloudStore.of(mem);

    @Test
    void getReturnsTheNewestOlderVersion() {
        stale.put(K + "1_abc", bytes("v1"));
        stale.put(K + "2_abc", bytes("v2"));
        stale.put(K + "3_abc", bytes("v3"));

        assertThat(stale.get(K + "3_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v2")));
        assertThat(stale.get(K + "2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
    }

    @Test
    void getOfTheOldestVersionIsEmpty() {
        stale.put(K + "1_abc", bytes("v1"));

        assertThat(stale.get(K + "1_abc", 100)).isEmpty();
    }

    @Test
    void versionsCompareBySequenceNumberNumericallyThenByClientId() {
        stale.put(K + "9_zzz", bytes("9 zzz"));
        stale.put(K + "10_aaa", bytes("10 aaa"));
        stale.put(K + "10_bbb", bytes("10 bbb"));
        stale.put(K + "11_aaa", bytes("11 aaa"));

        assertThat(stale.get(K + "10_aaa", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("9 zzz")));
        assertThat(stale.get(K + "10_bbb", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("10 aaa")));
        assertThat(stale.get(K + "11_aaa", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("10 bbb")));
    }

    @Test
    void aVersionTheCloudNeverReceivedIsServedAsTheOlderOne() {
        stale.put(K + "4_abc", bytes("v4"));

        assertThat(stale.get(K + "7_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v4")));
    }

    @Test
    void otherKeysSharingAPrefixAreNotMistakenForOlderVersions() {
        stale.put("hybris/photos/cat.jpg2#1_abc", bytes("other key"));
        stale.put("hybris/photos/ca#1_abc", bytes("shorter key"));
        stale.put(K + "2_abc", bytes("v2"));

        assertThat(stale.get(K + "2_abc", 100)).isEmpty();
    }

    @Test
    void keysThatAreNotHybrisVersionsAreForwarded() {
        stale.put("plain/key", bytes("plain"));
        stale.put("odd#name", bytes("odd"));
        stale.put("odd#x_abc", bytes("not a number"));

        assertThat(stale.get("plain/key", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("plain")));
        assertThat(stale.get("odd#name", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("odd")));
        assertThat(stale.get("odd#x_abc", 100)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("not a number")));
    }

    @Test
    void writesListsAndDeletesReachTheCloud() {
        stale.put(K + "1_abc", bytes("v1"));
        stale.put(K + "2_abc", bytes("v2"));
        stale.delete(K + "1_abc");

        assertThat(stale.list(K)).extracting(o -> o.key()).containsExactly(K + "2_abc");
        assertThat(stale.get(K + "2_abc", 100)).isEmpty();
    }

    @Test
    void switchingTheFaultOffServesTheRequestedVersion() {
        stale.put(K + "1_abc", bytes("v1"));
        stale.put(K + "2_abc", bytes("v2"));

        stale.setActive(false);
        assertThat(stale.isActive()).isFalse();
        assertThat(stale.get(K + "2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v2")));
        assertThat(stale.get(K + "1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));

        stale.setActive(true);
        assertThat(stale.get(K + "2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
    }
}
