/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.stream.IntStream;

import static io.hybris.ycsb.Records.iterators;
import static io.hybris.ycsb.Records.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scans over a table of 20 records with a LIST page of 3 keys, so every scan crosses page boundaries; a
 * neighbouring table whose keys sort right after the scanned ones must never leak in.
 */
class ScanTest {
    private static HybrisClient db;

    @BeforeAll
    static void load() throws DBException {
        db = Records.client(Records.props("hybris.scan.page-size", "3", "hybris.embedded.clouds", "memory"));
        for (int i = 0; i < 20; i++) {
            String k = String.format("user%02d", i);
            assertThat(db.insert("users", k, iterators(record("id", k, "f1", "v1-" + k)))).isEqualTo(Status.OK);
        }
        // "users2/..." sorts after every "users/..." key and shares the text prefix "users"
        assertThat(db.insert("users2", "user00", iterators(record("id", "other")))).isEqualTo(Status.OK);
        assertThat(db.insert("user", "user99", iterators(record("id", "other")))).isEqualTo(Status.OK);
    }

    @AfterAll
    static void close() {
        Records.cleanup(db);
    }

    @Test
    void scanReturnsTheStartKeyAndTheFollowingKeysInOrderAcrossPages() {
        assertThat(ids(scan("user05", 7, null))).containsExactly(range(5, 12).toArray(String[]::new));
    }

    @Test
    void scanFromAMissingKeyStartsAtTheNextKey() {
        assertThat(ids(scan("user05a", 4, null))).containsExactly("user06", "user07", "user08", "user09");
        assertThat(ids(scan("a", 2, null))).containsExactly("user00", "user01");
    }

    @Test
    void scanStopsAtTheEndOfTheTable() {
        assertThat(ids(scan("user17", 10, null))).containsExactly("user17", "user18", "user19");
        assertThat(ids(scan("user19", 1, null))).containsExactly("user19");
        assertThat(scan("zzz", 5, null)).isEmpty();
    }

    @Test
    void scanOfTheWholeTableReturnsEveryRecordOnce() {
        assertThat(ids(scan("user00", 1000, null))).containsExactlyElementsOf(range(0, 20));
    }

    @Test
    void scanHonoursTheRequestedFields() {
        List<HashMap<String, ByteIterator>> rows = scan("user10", 3, Set.of("f1"));
        assertThat(rows).hasSize(3);
        for (int i = 0; i < 3; i++) {
            Map<String, byte[]> row = Records.bytes(rows.get(i));
            assertThat(row).containsOnlyKeys("f1");
            assertThat(new String(row.get("f1"), StandardCharsets.UTF_8)).isEqualTo("v1-user1" + i);
        }
    }

    @Test
    void deletedRecordsAreSkippedAndTheCountIsStillMet() {
        db.insert("gaps", "k1", iterators(record("id", "k1")));
        db.insert("gaps", "k2", iterators(record("id", "k2")));
        db.insert("gaps", "k3", iterators(record("id", "k3")));
        db.insert("gaps", "k4", iterators(record("id", "k4")));
        db.insert("gaps", "k5", iterators(record("id", "k5")));
        assertThat(db.delete("gaps", "k1")).isEqualTo(Status.OK);
        assertThat(db.delete("gaps", "k3")).isEqualTo(Status.OK);
        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        assertThat(db.scan("gaps", "k1", 3, null, rows)).isEqualTo(Status.OK);
        assertThat(ids(rows)).containsExactly("k2", "k4", "k5");
    }

    private static List<HashMap<String, ByteIterator>> scan(String start, int count, Set<String> fields) {
        Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
        assertThat(db.scan("users", start, count, fields, rows)).isEqualTo(Status.OK);
        return rows;
    }

    private static List<String> ids(List<HashMap<String, ByteIterator>> rows) {
        return rows.stream().map(r -> r.get("id").toString()).toList();
    }

    private static List<String> range(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> String.format("user%02d", i)).toList();
    }
}
