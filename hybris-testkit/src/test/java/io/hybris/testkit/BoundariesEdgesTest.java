/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.ValueTooLargeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Values at the size limit and the chunk threshold, keys at 256 bytes, paging while keys come and go. */
class BoundariesEdgesTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void valuesAtTheLimitAndTheThreshold() {
        long max = 3L * CHUNK + 7;
        Hybris h = fx.open(b -> b.maxValueSize(max));
        byte[] atMax = value((int) max, 1);
        assertThat(h.put(C, "max", atMax).size()).isEqualTo(max);
        assertThat(h.put(C, "max-s", new ByteArrayInputStream(atMax), max).size()).isEqualTo(max);
        assertThat(h.put(C, "max-u", new ByteArrayInputStream(atMax), -1).size()).isEqualTo(max);
        assertThat(h.tput(C, Map.of("max-t", atMax)).get("max-t").size()).isEqualTo(max);
        byte[] over = value((int) max + 1, 2);
        assertThatThrownBy(() -> h.put(C, "over", over)).isInstanceOf(ValueTooLargeException.class);
        assertThatThrownBy(() -> h.put(C, "over", new ByteArrayInputStream(over), -1))
                .isInstanceOf(ValueTooLargeException.class);
        assertThatThrownBy(() -> h.tput(C, Map.of("over", over))).isInstanceOf(ValueTooLargeException.class);
        for (String k : List.of("max", "max-s", "max-u", "max-t")) {
            assertThat(h.get(C, k)).hasValueSatisfying(v -> assertThat(v).isEqualTo(atMax));
        }
        byte[] atThreshold = value(CHUNK, 3);
        assertThat(h.put(C, "t", atThreshold).chunks()).isZero();
        assertThat(h.put(C, "t-u", new ByteArrayInputStream(atThreshold), -1).chunks()).isZero();
        assertThat(h.put(C, "t1", value(CHUNK + 1, 4)).chunks()).isEqualTo(2);
        assertThat(h.put(C, "empty", new byte[0]).size()).isZero();
        assertThat(h.put(C, "empty-u", new ByteArrayInputStream(new byte[0]), -1).size()).isZero();
        assertThat(h.get(C, "empty-u")).hasValueSatisfying(v -> assertThat(v).isEmpty());
    }

    @Test
    void keysOf256BytesAndPagingWhileKeysComeAndGo() {
        Hybris h = fx.open();
        String emoji = "\uD83D\uDE00".repeat(64); // 256 bytes of UTF-8
        String mixed = "é".repeat(127) + "a/"; // 256 bytes
        h.put(C, emoji, "e".getBytes());
        h.put(C, mixed, "m".getBytes());
        assertThatThrownBy(() -> h.put(C, emoji + "a", "x".getBytes())).isInstanceOf(InvalidRequestException.class);
        assertThat(h.get(C, emoji)).hasValueSatisfying(v -> assertThat(v).isEqualTo("e".getBytes()));
        assertThat(h.list(C)).containsExactlyInAnyOrder(emoji, mixed);
        assertThat(h.listDescribed(C, "é", null, 10).keys()).hasSize(1);

        for (int i = 0; i < 20; i++) {
            h.put(C, String.format("p%02d", i), new byte[] {1});
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int page = 0;
        do {
            KeyPage p = h.list(C, "p", cursor, 3);
            seen.addAll(p.keys());
            cursor = p.nextCursor().orElse(null);
            if (page == 1) {
                h.delete(C, "p" + String.format("%02d", 5)); // already listed
                h.delete(C, "p" + String.format("%02d", 15)); // not yet listed
                h.delete(C, p.keys().get(p.keys().size() - 1)); // the cursor key itself
                h.put(C, "p99", new byte[] {2}); // created after the cursor
            }
            page++;
        } while (cursor != null);
        assertThat(seen).doesNotHaveDuplicates().contains("p99").doesNotContain("p15").contains("p00", "p19");
    }
}
