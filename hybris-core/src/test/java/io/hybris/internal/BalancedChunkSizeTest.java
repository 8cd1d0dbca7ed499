/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.junit.jupiter.api.Test;

import static io.hybris.internal.ChunkedWriter.balancedChunkSize;
import static org.assertj.core.api.Assertions.assertThat;

/** The chunk size a put of known length uses: as many chunks as the configured size needs, of nearly equal size. */
class BalancedChunkSizeTest {
    private static final int MIB = 1 << 20;

    @Test
    void aValueJustAboveOneChunkIsCutInHalves() {
        assertThat(balancedChunkSize(10L * MIB, 8 * MIB)).isEqualTo(5 * MIB);
        assertThat(balancedChunkSize(8L * MIB + 1, 8 * MIB)).isEqualTo(4 * MIB + 4096); // aligned up to 4 KiB
    }

    @Test
    void unknownLengthsAndValuesOfOneChunkKeepTheConfiguredSize() {
        assertThat(balancedChunkSize(ValueSource.UNKNOWN_LENGTH, 8 * MIB)).isEqualTo(8 * MIB);
        assertThat(balancedChunkSize(0, 8 * MIB)).isEqualTo(8 * MIB);
        assertThat(balancedChunkSize(8L * MIB, 8 * MIB)).isEqualTo(8 * MIB);
        assertThat(balancedChunkSize(16L * MIB, 8 * MIB)).isEqualTo(8 * MIB); // already even
    }

    @Test
    void neverMoreChunksThanTheConfiguredSizeNeedsAndNoneLarger() {
        int[] maxes = {1000, 4096, 64 << 10, 8 * MIB, 512 * MIB};
        for (int max : maxes) {
            for (long length : new long[]{max + 1L, 2L * max - 1, 2L * max + 1, 5L * max + 17, 1000L * max + 3}) {
                int size = balancedChunkSize(length, max);
                assertThat(size).as("%d in chunks of at most %d", length, max).isBetween(1, max);
                assertThat(ChunkManifest.chunkCount(length, size)).as("%d in chunks of %d", length, max)
                        .isEqualTo(ChunkManifest.chunkCount(length, max));
                long last = length - (ChunkManifest.chunkCount(length, size) - 1) * size;
                if (size < max) { // balanced: the last chunk is within one alignment step of the others per chunk
                    assertThat(size - last).isLessThanOrEqualTo(ChunkManifest.chunkCount(length, size)
                            * (long) ChunkedWriter.ALIGNMENT);
                }
            }
        }
    }
}
