/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Chunk names ({@code <version name>#c<i>}): round trips, and that chunk and version names never parse as each other. */
class VersionNameChunkTest {
    private static final String P = "hybris/";

    private static final List<VersionName> VERSIONS = List.of(
            new VersionName("media", "talk.mp4", 7, "c1", 12345),
            new VersionName("media", "a#c3", 0, "client-9", VersionName.NO_WRITE_ID),
            new VersionName("m", "dir/file#c", 123456789, "x", 0),
            new VersionName("m", "k#1_c1", 2, "ab", 35));

    @Test
    void chunkNamesRoundTripForEveryIndexShape() {
        for (VersionName v : VERSIONS) {
            for (long index : new long[] {0, 1, 9, 10, 12345, Integer.MAX_VALUE, 10_000L << 45 | 123L << 21 | 7,
                    999_999_999_999_999_999L}) {
                String name = v.renderChunk(P, index);

                assertThat(name).isEqualTo(v.render(P) + "#c" + index).startsWith(v.chunkPrefix(P));
                assertThat(VersionName.parseChunk(P, name)).contains(new VersionName.Chunk(v, index));
            }
        }
    }

    @Test
    void chunkNamesNeverParseAsVersionsAndVersionNamesNeverAsChunks() {
        for (VersionName v : VERSIONS) {
            assertThat(VersionName.parse(P, v.render(P))).contains(v);
            assertThat(VersionName.parseChunk(P, v.render(P))).as(v.render(P)).isEmpty();
            for (int index : new int[] {0, 7, 100}) {
                assertThat(VersionName.parse(P, v.renderChunk(P, index))).as(v.renderChunk(P, index)).isEmpty();
            }
        }
    }

    @Test
    void almostChunkNamesAreNotChunks() {
        VersionName v = VERSIONS.get(0);
        String base = v.render(P);
        for (String name : List.of(base + "#c", base + "#c-1", base + "#c01", base + "#c1x", base + "#c 1",
                base + "#c9999999999999999999", base + "#c1234567890123456789", base + "#C1", base + "#c1#c2", "other/" + base.substring(P.length()) + "#c1",
                base.substring(0, base.lastIndexOf('#')) + "#c1")) {
            Optional<VersionName.Chunk> parsed = VersionName.parseChunk(P, name);
            assertThat(parsed).as(name).isEmpty();
        }
    }

    @Test
    void negativeIndexesAreRefused() {
        VersionName v = VERSIONS.get(0);
        assertThatThrownBy(() -> v.renderChunk(P, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new VersionName.Chunk(v, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
