/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch of queued commits retries only until the earliest give-up time among its callers (the committing one's
 * included): were it the latest, a caller batched with a later one would wait past its own bound, which Hybris trusts
 * to run metadata calls on the caller's thread. {@link System#nanoTime()} values compare by difference, as they wrap.
 */
class ConsulBatchGiveUpTest {
    private static ConsulCommit commit(String key, long giveUpNanos) {
        return new ConsulCommit(List.of(new MetadataUpdate(new MetadataKey("c", key),
                key.getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT)), 0, giveUpNanos);
    }

    @Test
    void theEarliestGiveUpTimeOfTheBatchBoundsIt() {
        long leader = 5_000;
        assertThat(ConsulBatchWrite.earliestGiveUp(leader, List.of(commit("a", 9_000), commit("b", 3_000),
                commit("c", 7_000)))).isEqualTo(3_000);
        assertThat(ConsulBatchWrite.earliestGiveUp(leader, List.of(commit("a", 9_000), commit("b", 6_000))))
                .isEqualTo(leader);
        assertThat(ConsulBatchWrite.earliestGiveUp(leader, List.of())).isEqualTo(leader);
    }

    @Test
    void giveUpTimesAcrossTheWrapOfNanoTimeCompareByDifference() {
        long beforeWrap = Long.MAX_VALUE - 1_000;
        long afterWrap = Long.MIN_VALUE + 1_000; // 2,001 ns after beforeWrap
        assertThat(ConsulBatchWrite.earliestGiveUp(afterWrap, List.of(commit("a", beforeWrap))))
                .isEqualTo(beforeWrap);
        assertThat(ConsulBatchWrite.earliestGiveUp(beforeWrap, List.of(commit("a", afterWrap))))
                .isEqualTo(beforeWrap);
    }
}
