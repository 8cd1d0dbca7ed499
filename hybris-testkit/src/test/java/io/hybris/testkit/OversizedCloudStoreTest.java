/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.OversizedObjectException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OversizedCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");

    @Test
    void aHugeReplyIsCutOffOneByteAfterTheLimit() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 100L << 20);
        byte[] value = new byte[1024];
        new Random(3).nextBytes(value);
        big.put("k#1_abc", value);

        assertThatThrownBy(() -> big.get("k#1_abc", 1024))
                .isInstanceOfSatisfying(OversizedObjectException.class, e -> {
                    assertThat(e.cloudId()).isEqualTo("c1");
                    assertThat(e.getMessage()).contains("k#1_abc", "1024");
                });
        assertThat(big.bytesServed()).isLessThanOrEqualTo(1025).isEqualTo(1025);
    }

    @Test
    void bytesServedAddsUpOverReadsUntilReset() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 100L << 20);
        big.put("k#1_abc", new byte[10]);

        assertThatThrownBy(() -> big.get("k#1_abc", 10)).isInstanceOf(OversizedObjectException.class);
        assertThatThrownBy(() -> big.get("k#1_abc", 20)).isInstanceOf(OversizedObjectException.class);
        assertThat(big.bytesServed()).isEqualTo(11 + 21);

        big.resetCounters();
        assertThat(big.bytesServed()).isZero();
    }

    @Test
    void aLimitAboveTheReplyReturnsTheStoredBytesFollowedByGarbage() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 10);
        big.put("k#1_abc", bytes("real bytes"));

        byte[] read = big.get("k#1_abc", 20).orElseThrow();

        assertThat(read).hasSize(20);
        assertThat(Arrays.copyOf(read, 10)).isEqualTo(bytes("real bytes"));
        assertThat(big.bytesServed()).isEqualTo(20);
        assertThatThrownBy(() -> big.get("k#1_abc", 19)).isInstanceOf(OversizedObjectException.class);
        assertThat(big.get("k#1_abc", Long.MAX_VALUE)).hasValueSatisfying(v -> assertThat(v).hasSize(20));
        assertThat(big.extraBytes()).isEqualTo(10);
    }

    @Test
    void aStoredObjectAboveTheLimitIsRejectedByTheStoreBelow() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 100);
        big.put("k#1_abc", new byte[50]);

        assertThatThrownBy(() -> big.get("k#1_abc", 49)).isInstanceOf(OversizedObjectException.class);
        assertThat(big.bytesServed()).isZero();
    }

    @Test
    void aMissingObjectStaysMissing() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 100);

        assertThat(big.get("missing#1_abc", 10)).isEmpty();
        assertThat(big.bytesServed()).isZero();
    }

    @Test
    void switchingTheFaultOffServesExactlyTheStoredBytes() {
        OversizedCloudStore big = OversizedCloudStore.of(mem, 100L << 20);
        big.put("k#1_abc", bytes("exact"));

        big.setActive(false);

        assertThat(big.isActive()).isFalse();
        assertThat(big.get("k#1_abc", 5)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("exact")));
        assertThat(big.bytesServed()).isZero();
        big.setActive(true);
        assertThatThrownBy(() -> big.get("k#1_abc", 5)).isInstanceOf(OversizedObjectException.class);
    }

    @Test
    void rejectsANegativeExtraSizeQuotingIt() {
        assertThatThrownBy(() -> OversizedCloudStore.of(mem, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
