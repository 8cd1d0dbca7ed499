/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordCodecTest {

    @Test
    void encodingIsPinned() {
        Map<String, byte[]> record = new LinkedHashMap<>();
        record.put("f1", new byte[] {0, (byte) 0xFF});
        record.put("f0", "ab".getBytes(StandardCharsets.UTF_8));
        // magic, version, 2 fields; then in name order: len 2 "f0" len 2 "ab", len 2 "f1" len 2 00 FF
        assertThat(RecordCodec.encode(record)).containsExactly(
                0xB1, 1, 2,
                2, 'f', '0', 2, 'a', 'b',
                2, 'f', '1', 2, 0x00, 0xFF);
    }

    @Test
    void everyByteValueRoundTripsInEveryField() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        Map<String, byte[]> record = Map.of(
                "binary", all,
                "empty", new byte[0],
                "ünïcødé name ✓", "value".getBytes(StandardCharsets.UTF_8),
                "", new byte[] {7},
                "has,comma=and;semicolon", new byte[] {'=', ',', ';'});
        assertSameRecord(RecordCodec.decode(RecordCodec.encode(record), null), record);
    }

    @Test
    void manyFieldsAndLongValuesRoundTrip() {
        Map<String, byte[]> record = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            byte[] value = new byte[i * 7];
            Arrays.fill(value, (byte) i);
            record.put("field" + i, value);
        }
        byte[] big = new byte[200_000]; // lengths above 2^14 take 3 varint bytes
        Arrays.fill(big, (byte) 0x80);
        record.put("big", big);
        assertSameRecord(RecordCodec.decode(RecordCodec.encode(record), null), record);
    }

    @Test
    void decodeKeepsOnlyTheWantedFields() {
        Map<String, byte[]> record = Map.of("a", new byte[] {1}, "b", new byte[] {2, 2}, "c", new byte[] {3});
        Map<String, byte[]> some = RecordCodec.decode(RecordCodec.encode(record), Set.of("b", "missing"));
        assertThat(some).containsOnlyKeys("b");
        assertThat(some.get("b")).containsExactly(2, 2);
        assertThat(RecordCodec.decode(RecordCodec.encode(record), Set.of())).isEmpty();
    }

    @Test
    void emptyRecordRoundTrips() {
        assertThat(RecordCodec.encode(Map.of())).containsExactly(0xB1, 1, 0);
        assertThat(RecordCodec.decode(new byte[] {(byte) 0xB1, 1, 0}, null)).isEmpty();
    }

    @Test
    void malformedValuesAreRejectedWithTheReason() {
        byte[] good = RecordCodec.encode(Map.of("f", new byte[] {1, 2, 3}));
        assertThatThrownBy(() -> RecordCodec.decode("plain text".getBytes(StandardCharsets.UTF_8), null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("not a YCSB record written by the Hybris binding: first byte 0x70, expected 0xB1");
        assertThatThrownBy(() -> RecordCodec.decode(new byte[0], null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("record truncated: magic byte runs past the end of the 0-byte value");
        assertThatThrownBy(() -> RecordCodec.decode(new byte[] {(byte) 0xB1, 2, 0}, null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessageStartingWith("record format version 2 is not supported");
        assertThatThrownBy(() -> RecordCodec.decode(Arrays.copyOf(good, good.length - 1), null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("length of field \"f\" is 3 but only 2 bytes remain");
        assertThatThrownBy(() -> RecordCodec.decode(Arrays.copyOf(good, good.length + 2), null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("2 trailing bytes after the last of 1 fields");
        assertThatThrownBy(() -> RecordCodec.decode(new byte[] {(byte) 0xB1, 1, 2, 1, 'x', 0, 1, 'x', 0}, null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("field \"x\" appears twice in the record");
        assertThatThrownBy(() -> RecordCodec.decode(new byte[] {(byte) 0xB1, 1, 1, 1, (byte) 0xC3, 0}, null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("field name #1 is not valid UTF-8");
        assertThatThrownBy(() -> RecordCodec.decode(new byte[] {(byte) 0xB1, 1, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01}, null))
                .isInstanceOf(RecordFormatException.class)
                .hasMessage("field count is not a valid varint (more than 5 bytes)");
    }

    private static void assertSameRecord(Map<String, byte[]> actual, Map<String, byte[]> expected) {
        assertThat(actual).containsOnlyKeys(expected.keySet());
        expected.forEach((name, value) -> assertThat(actual.get(name)).as(name).containsExactly(value));
    }
}
