/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import static io.hybris.ycsb.Records.bytes;
import static io.hybris.ycsb.Records.iterators;
import static io.hybris.ycsb.Records.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every operation and status path over the embedded default (in-process ZooKeeper, three directory clouds), with
 * its data directory in a temporary directory instead of the working directory.
 */
class HybrisClientTest {
    @TempDir
    static Path data;
    private static Properties defaults;
    private static HybrisClient db;

    @BeforeAll
    static void open() throws DBException {
        defaults = Records.props("hybris.embedded.dir", data.toString());
        db = Records.client(defaults);
    }

    @AfterAll
    static void close() {
        Records.cleanup(db);
    }

    @Test
    void insertThenReadReturnsEveryFieldExactly() {
        Map<String, byte[]> rec = record("field0", "zero", "field1", "one", "field2", "");
        rec.put("binary", new byte[] {0, -1, 10, 13, 0x7F, -128});
        assertThat(db.insert("t1", "user1", iterators(rec))).isEqualTo(Status.OK);

        Map<String, ByteIterator> all = new HashMap<>();
        assertThat(db.read("t1", "user1", null, all)).isEqualTo(Status.OK);
        Map<String, byte[]> got = bytes(all); // a ByteIterator can be read once
        assertThat(got).containsOnlyKeys(rec.keySet());
        rec.forEach((k, v) -> assertThat(got.get(k)).as(k).containsExactly(v));
    }

    @Test
    void concurrentUpdatesOfDifferentFieldsOfOneRecordLoseNothing() throws Exception {
        db.insert("t9", "hot", iterators(record("base", "0")));
        int threads = 6;
        int rounds = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        try {
            java.util.List<java.util.concurrent.Future<Status>> results = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                for (int r = 0; r < rounds; r++) {
                    String field = "f" + t + "-" + r; // every update adds its own field: a lost one stays lost
                    String value = Integer.toString(r);
                    results.add(pool.submit(() -> {
                        start.await();
                        return db.update("t9", "hot", iterators(record(field, value)));
                    }));
                }
            }
            start.countDown();
            for (java.util.concurrent.Future<Status> f : results) {
                assertThat(f.get(2, java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(Status.OK);
            }
        } finally {
            pool.shutdownNow();
        }
        Map<String, ByteIterator> all = new HashMap<>();
        assertThat(db.read("t9", "hot", null, all)).isEqualTo(Status.OK);
        Map<String, byte[]> got = bytes(all);
        // without the conditional write, a read-modify-write racing another would drop the other's field
        assertThat(got).hasSize(1 + threads * rounds);
    }

    @Test
    void readHonoursTheRequestedFields() {
        db.insert("t2", "user1", iterators(record("a", "1", "b", "2", "c", "3")));
        Map<String, ByteIterator> some = new HashMap<>();
        assertThat(db.read("t2", "user1", Set.of("a", "c", "absent"), some)).isEqualTo(Status.OK);
        Map<String, byte[]> got = bytes(some);
        assertThat(got).containsOnlyKeys("a", "c");
        assertThat(got.get("a")).containsExactly('1');
        assertThat(got.get("c")).containsExactly('3');
    }

    @Test
    void updateMergesTheGivenFieldsIntoTheStoredRecord() {
        db.insert("t3", "user1", iterators(record("a", "1", "b", "2")));
        assertThat(db.update("t3", "user1", iterators(record("b", "two", "c", "three")))).isEqualTo(Status.OK);
        Map<String, ByteIterator> all = new HashMap<>();
        db.read("t3", "user1", null, all);
        Map<String, byte[]> got = bytes(all);
        assertThat(got).containsOnlyKeys("a", "b", "c");
        assertThat(new String(got.get("a"), StandardCharsets.UTF_8)).isEqualTo("1");
        assertThat(new String(got.get("b"), StandardCharsets.UTF_8)).isEqualTo("two");
        assertThat(new String(got.get("c"), StandardCharsets.UTF_8)).isEqualTo("three");
    }

    @Test
    void updateOfALargeRecordKeepsEveryByte() {
        byte[] big = new byte[200_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 7);
        }
        Map<String, byte[]> rec = record("small", "s");
        rec.put("big", big);
        assertThat(db.insert("t12", "user1", iterators(rec))).isEqualTo(Status.OK);
        assertThat(db.update("t12", "user1", iterators(record("small", "t")))).isEqualTo(Status.OK);
        Map<String, ByteIterator> all = new HashMap<>();
        assertThat(db.read("t12", "user1", null, all)).isEqualTo(Status.OK);
        Map<String, byte[]> got = bytes(all);
        assertThat(got.get("big")).isEqualTo(big);
        assertThat(new String(got.get("small"), StandardCharsets.UTF_8)).isEqualTo("t");
    }

    @Test
    void missingRecordsAreNotFoundForReadUpdateAndDelete() {
        Map<String, ByteIterator> result = new HashMap<>();
        assertThat(db.read("t4", "nobody", null, result)).isEqualTo(Status.NOT_FOUND);
        assertThat(result).isEmpty();
        assertThat(db.update("t4", "nobody", iterators(record("a", "1")))).isEqualTo(Status.NOT_FOUND);
        assertThat(db.read("t4", "nobody", null, result)).as("update must not create").isEqualTo(Status.NOT_FOUND);
        assertThat(db.delete("t4", "nobody")).isEqualTo(Status.NOT_FOUND);
    }

    @Test
    void deleteRemovesTheRecord() {
        db.insert("t5", "user1", iterators(record("a", "1")));
        assertThat(db.delete("t5", "user1")).isEqualTo(Status.OK);
        assertThat(db.read("t5", "user1", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
        assertThat(db.delete("t5", "user1")).isEqualTo(Status.NOT_FOUND);
        assertThat(db.insert("t5", "user1", iterators(record("a", "again")))).isEqualTo(Status.OK);
        Map<String, ByteIterator> r = new HashMap<>();
        assertThat(db.read("t5", "user1", null, r)).isEqualTo(Status.OK);
        assertThat(r.get("a").toString()).isEqualTo("again");
    }

    @Test
    void insertReplacesAWholeRecord() {
        db.insert("t6", "user1", iterators(record("a", "1", "b", "2")));
        db.insert("t6", "user1", iterators(record("c", "3")));
        Map<String, ByteIterator> r = new HashMap<>();
        db.read("t6", "user1", null, r);
        assertThat(bytes(r)).containsOnlyKeys("c");
    }

    @Test
    void keysHybrisRejectsAreBadRequests() {
        String tooLong = "k".repeat(254); // "t7/" + 254 bytes = 257 > 256
        assertThat(db.insert("t7", tooLong, iterators(record("a", "1")))).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.read("t7", tooLong, null, new HashMap<>())).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.update("t7", "bad\u0001key", iterators(record("a", "1")))).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.delete("t7", "bad\nkey")).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.scan("t7", "bad\u0000key", 3, null, new Vector<>())).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.scan("t7", "user1", 0, null, new Vector<>())).isEqualTo(Status.BAD_REQUEST);
        assertThat(db.insert("t7", "k".repeat(253), iterators(record("a", "1")))).as("256 bytes is the limit")
                .isEqualTo(Status.OK);
    }

    @Test
    void aValueThatIsNotARecordIsAnErrorNotAnEmptyRecord() throws DBException {
        HybrisClient other = Records.client(defaults);
        SharedClients.Lease lease = SharedClients.acquire(BindingSettings.from(defaults));
        try {
            lease.hybris().put("ycsb", "t8/user1", "written by someone else".getBytes(StandardCharsets.UTF_8));
            Map<String, ByteIterator> r = new HashMap<>();
            assertThat(other.read("t8", "user1", null, r)).isEqualTo(Status.ERROR);
            assertThat(r).isEmpty();
            assertThat(other.update("t8", "user1", iterators(record("a", "1")))).isEqualTo(Status.ERROR);
            assertThat(lease.hybris().get("ycsb", "t8/user1").orElseThrow())
                    .as("a failed update writes nothing")
                    .isEqualTo("written by someone else".getBytes(StandardCharsets.UTF_8));
            assertThat(other.scan("t8", "user1", 1, null, new Vector<>())).isEqualTo(Status.ERROR);
        } finally {
            lease.release();
            Records.cleanup(other);
        }
    }

    @Test
    void aFieldNameWithNoUtf8FormIsABadRequestNotAMangledRecord() {
        // two names with unpaired surrogates: their UTF-8 would both be "f?", a record no read could decode
        assertThat(db.insert("t11", "user1", iterators(record("f\uD800", "1", "f\uDC00", "2"))))
                .isEqualTo(Status.BAD_REQUEST);
        assertThat(db.read("t11", "user1", null, new HashMap<>())).as("nothing written").isEqualTo(Status.NOT_FOUND);
        assertThat(db.insert("t11", "user1", iterators(record("ok", "1")))).isEqualTo(Status.OK);
        assertThat(db.update("t11", "user1", iterators(record("x\uD800", "2")))).isEqualTo(Status.BAD_REQUEST);
        Map<String, ByteIterator> r = new HashMap<>();
        assertThat(db.read("t11", "user1", null, r)).isEqualTo(Status.OK);
        assertThat(r.keySet()).as("no field renamed to x?").containsExactly("ok");
    }

    @Test
    void allThreadsShareOneClientClosedByTheLastCleanup(@TempDir Path dir)
            throws DBException {
        Properties props = Records.props("hybris.embedded.dir", dir.toString());
        BindingSettings settings = BindingSettings.from(props);
        HybrisClient first = Records.client(props);
        HybrisClient second = Records.client(props);
        assertThat(SharedClients.references(settings)).isEqualTo(2);
        SharedClients.Lease probe = SharedClients.acquire(settings);
        Hybris shared = probe.hybris();
        probe.release();
        probe.release(); // idempotent
        assertThat(SharedClients.references(settings)).isEqualTo(2);

        assertThat(first.insert("t9", "user1", iterators(record("a", "1")))).isEqualTo(Status.OK);
        assertThat(dir.resolve("cloud-disk1")).isDirectory();
        assertThat(dir.resolve("zookeeper")).isDirectory();
        Records.cleanup(first);
        assertThat(SharedClients.references(settings)).isEqualTo(1);
        Records.cleanup(first); // a second cleanup is a no-op
        assertThat(SharedClients.references(settings)).isEqualTo(1);
        Map<String, ByteIterator> r = new HashMap<>();
        assertThat(second.read("t9", "user1", null, r)).as("still open for the other thread").isEqualTo(Status.OK);

        Records.cleanup(second);
        assertThat(SharedClients.references(settings)).isZero();
        assertThatThrownBy(() -> shared.get("ycsb", "t9/user1")).isInstanceOf(ClientClosedException.class);

        HybrisClient later = Records.client(props); // a later YCSB phase (e.g. run after load) sees the data
        try {
            Map<String, ByteIterator> again = new HashMap<>();
            assertThat(later.read("t9", "user1", null, again)).isEqualTo(Status.OK);
            assertThat(again.get("a").toString()).isEqualTo("1");
        } finally {
            Records.cleanup(later);
        }
    }

    @Test
    void inMemoryCloudsLeaveNothingBehind() throws DBException {
        Properties props = Records.props("hybris.embedded.clouds", "memory");
        HybrisClient c = Records.client(props);
        SharedClients.Lease lease = SharedClients.acquire(BindingSettings.from(props));
        String description = lease.description();
        lease.release();
        Path zkDir = Path.of(description.substring(description.lastIndexOf(" under ") + " under ".length()));
        assertThat(zkDir.resolve("zookeeper")).isDirectory();
        assertThat(c.insert("t10", "user1", iterators(record("a", "1")))).isEqualTo(Status.OK);
        Records.cleanup(c);
        assertThat(Files.exists(zkDir)).as("temporary directory deleted").isFalse();
    }

    @Test
    void initFailuresNameTheProblem(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> Records.client(Records.props("hybris.config", missing.toString())))
                .isInstanceOf(DBException.class)
                .hasMessageStartingWith("Hybris YCSB binding: cannot open the deployment configured in " + missing
                        + ": hybris.config=" + missing + ": no such file");
        assertThatThrownBy(() -> Records.client(Records.props("hybris.containr", "x")))
                .isInstanceOf(DBException.class)
                .hasMessageStartingWith("unknown YCSB property [hybris.containr]");
    }

    @Test
    void initTwiceIsRefused() throws DBException {
        HybrisClient c = Records.client(defaults);
        try {
            assertThatThrownBy(c::init).isInstanceOf(DBException.class)
                    .hasMessage("init() called twice on the same HybrisClient");
        } finally {
            Records.cleanup(c);
        }
    }
}
