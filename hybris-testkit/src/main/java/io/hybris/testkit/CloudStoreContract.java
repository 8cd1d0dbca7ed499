/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.PermanentCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Collectors;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The contract every {@link CloudStore} must honour for Hybris, as one abstract JUnit Jupiter suite that each
 * implementation's test extends (as the AWS SDK's {@code SdkHttpClientTestSuite}). Every test asserts an exact
 * outcome: the bytes read back, the keys and sizes listed, the exception thrown.
 *
 * <pre>{@code
 * class S3CloudStoreContractTest extends CloudStoreContract {
 *     @Override protected CloudStore newStore() { return new S3CloudStore("s3", freshBucket()); }
 * }
 * }</pre>
 *
 * <p>{@link #newStore()} must return a fresh, empty store (or a store scoped to a fresh, empty namespace) for
 * each test; {@link #closeStore} releases it after the test. Tests use object keys under {@value #ROOT} only.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public abstract class CloudStoreContract {
    /** The prefix of every object key the suite writes. */
    protected static final String ROOT = "hybris/contract/";

    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";

    private CloudStore store;

    /** A fresh, empty store (or a store over a fresh, empty namespace) for one test. */
    protected abstract CloudStore newStore();

    /** Releases a store made by {@link #newStore()}; the default closes it. */
    protected void closeStore(CloudStore store) {
        store.close();
    }

    /** The store of the running test. */
    protected final CloudStore store() {
        return store;
    }

    /**
     * Makes a store configured like {@link #newStore()} but with credentials the server rejects, for the test
     * that wrong credentials surface as a {@link PermanentCloudException}; empty (the default) for stores that
     * have no credentials, which skips that test.
     */
    protected Optional<Supplier<CloudStore>> storeWithWrongCredentials() {
        return Optional.empty();
    }

    /**
     * Makes a store configured like {@link #newStore()} but over a bucket (container) that does not exist, with
     * bucket creation off, for the test that this surfaces as a {@link PermanentCloudException} naming the
     * bucket — at creation (a start-up check) or at the first operation; empty (the default) for stores without
     * buckets, which skips that test.
     */
    protected Optional<Supplier<CloudStore>> storeOverMissingBucket() {
        return Optional.empty();
    }

    /** The name of the missing bucket {@link #storeOverMissingBucket()} uses, expected in the error message. */
    protected String missingBucketName() {
        return "hybris-missing-bucket";
    }

    @BeforeEach
    final void createStore() {
        store = newStore();
        assertThat(store).as("newStore()").isNotNull();
    }

    @AfterEach
    final void releaseStore() {
        if (store != null) {
            closeStore(store);
        }
    }

    @Test
    void putThenGetReturnsTheSameBytes() {
        byte[] value = "hello, hybris".getBytes(StandardCharsets.UTF_8);
        store.put(ROOT + "greeting#1_abc", value);

        assertThat(store.get(ROOT + "greeting#1_abc", value.length)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(value));
        assertThat(store.id()).isNotBlank().isEqualTo(store.id());
    }

    @Test
    void getOfMissingKeyIsEmpty() {
        assertThat(store.get(ROOT + "missing#1_abc", 1024)).isEmpty();
        assertThat(store.get(ROOT + "missing#1_abc", 0)).isEmpty();
        store.put(ROOT + "present#1_abc", new byte[] {1});
        assertThat(store.get(ROOT + "present#1_ab", 1024)).isEmpty();
        assertThat(store.get(ROOT + "present#1_abcd", 1024)).isEmpty();
    }

    @Test
    void overwriteReturnsTheNewestValue() {
        String key = ROOT + "overwritten";
        store.put(key, bytes("first, and longer than the second"));
        store.put(key, bytes("second"));

        assertThat(store.get(key, 1024)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("second")));
        assertThat(store.list(key)).extracting(CloudObject::key, CloudObject::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(key, 6L));
    }

    @Test
    void binaryDataWithEveryByteValueRoundTrips() {
        byte[] value = new byte[512];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (255 - i % 256);
        }
        store.put(ROOT + "binary#1_abc", value);

        assertThat(store.get(ROOT + "binary#1_abc", value.length)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(value));
    }

    @Test
    void emptyObjectRoundTripsAndIsListedWithSizeZero() {
        store.put(ROOT + "empty#1_abc", new byte[0]);

        assertThat(store.get(ROOT + "empty#1_abc", 0)).hasValueSatisfying(v -> assertThat(v).isEmpty());
        assertThat(store.list(ROOT + "empty")).extracting(CloudObject::key, CloudObject::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(ROOT + "empty#1_abc", 0L));
    }

    @Test
    void storedBytesAreIndependentOfTheCallersArrays() {
        byte[] value = bytes("original");
        store.put(ROOT + "copied#1_abc", value);
        value[0] = 'X';
        byte[] read = store.get(ROOT + "copied#1_abc", 100).orElseThrow();
        read[1] = 'Y';

        assertThat(store.get(ROOT + "copied#1_abc", 100)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("original")));
    }

    @Test
    void deleteRemovesTheObjectAndOnlyIt() {
        store.put(ROOT + "doomed#1_abc", bytes("doomed"));
        store.put(ROOT + "doomed#2_abc", bytes("kept"));

        store.delete(ROOT + "doomed#1_abc");

        assertThat(store.get(ROOT + "doomed#1_abc", 100)).isEmpty();
        assertThat(store.get(ROOT + "doomed#2_abc", 100)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("kept")));
        assertThat(keys(store.list(ROOT + "doomed"))).containsExactly(ROOT + "doomed#2_abc");
    }

    @Test
    void deleteOfMissingKeyIsANoOp() {
        store.put(ROOT + "bystander#1_abc", bytes("still here"));

        store.delete(ROOT + "never-written#1_abc");
        store.delete(ROOT + "bystander#1_abc");
        store.delete(ROOT + "bystander#1_abc");

        assertThat(store.get(ROOT + "bystander#1_abc", 100)).isEmpty();
        assertThat(store.list(ROOT)).isEmpty();
    }

    @Test
    void listByPrefixReturnsExactlyTheMatchingKeysWithSizes() {
        int n = 1_100;
        Map<String, Long> expected = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String key = ROOT + "many/item-" + i + "#1_abc";
            byte[] value = new byte[i % 7];
            store.put(key, value);
            expected.put(key, (long) value.length);
        }
        store.put(ROOT + "manyx#1_abc", bytes("sibling prefix"));
        store.put(ROOT + "man#1_abc", bytes("shorter"));
        store.put(ROOT + "other/many/item-1#1_abc", bytes("elsewhere"));
        Instant latest = Instant.now().plus(CLOCK_SKEW);

        List<CloudObject> listed = store.list(ROOT + "many/");

        assertThat(listed).hasSize(n);
        assertThat(listed.stream().collect(Collectors.toMap(CloudObject::key, CloudObject::size)))
                .isEqualTo(expected);
        assertThat(listed).allSatisfy(o -> assertThat(o.lastModified()).isBefore(latest));
        assertThat(keys(store.list(ROOT + "many/item-100"))).containsExactlyInAnyOrder(
                ROOT + "many/item-100#1_abc", ROOT + "many/item-1000#1_abc", ROOT + "many/item-1001#1_abc",
                ROOT + "many/item-1002#1_abc", ROOT + "many/item-1003#1_abc", ROOT + "many/item-1004#1_abc",
                ROOT + "many/item-1005#1_abc", ROOT + "many/item-1006#1_abc", ROOT + "many/item-1007#1_abc",
                ROOT + "many/item-1008#1_abc", ROOT + "many/item-1009#1_abc");
        assertThat(keys(store.list(ROOT + "many"))).hasSize(n + 1).contains(ROOT + "manyx#1_abc");
        assertThat(store.list(ROOT + "nothing-here/")).isEmpty();
    }

    @Test
    void everyCharacterHybrisUsesInObjectKeysRoundTrips() {
        List<String> keys = new ArrayList<>();
        keys.add(ROOT + "ascii/" + UPPER + "/" + LOWER + DIGITS + "._%#-" + "/x#1_abc");
        keys.add(ROOT + "ascii/.dot/..dots/.../-dash/_under/%pct/#hash/x#2_abc");
        keys.add(ROOT + "ascii/a.b_c-d%20e#12345678901234_client-1");
        for (String userKey : List.of("日本語のキー", "ключ/со/слэшами", "emoji 😀 #%/..", ".hidden", ".", "..",
                "100%", "a#b", "tab-free spaces", "C:\\windows\\path")) {
            keys.add(ROOT + "unicode/" + KeyEncoding.encode(userKey) + "#7_client-1");
        }
        String longEncoded = KeyEncoding.encode("é".repeat(116));
        assertThat(longEncoded).hasSize(696);
        keys.add(ROOT + "long/" + longEncoded + "#1_abcdefgh");
        String longest = ROOT + "max/" + "x".repeat(1024 - (ROOT + "max/").length() - "#1_a".length()) + "#1_a";
        assertThat(longest).hasSize(1024);
        keys.add(longest);

        for (String key : keys) {
            store.put(key, bytes(key));
        }

        for (String key : keys) {
            assertThat(store.get(key, 4096)).as(key).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes(key)));
            assertThat(keys(store.list(key))).as("list of " + key).containsExactly(key);
        }
        Map<String, Long> listed = store.list(ROOT).stream()
                .collect(Collectors.toMap(CloudObject::key, CloudObject::size));
        assertThat(listed).isEqualTo(keys.stream().collect(Collectors.toMap(k -> k, k -> (long) bytes(k).length)));
    }

    @Test
    void largeObjectRoundTrips() {
        int size = 64 << 20;
        byte[] value = new byte[size];
        new Random(20260101L).nextBytes(value);
        String expectedHash = sha256(value);
        store.put(ROOT + "large#1_abc", value);
        value = null; // let the GC reclaim it before the read

        Optional<byte[]> read = store.get(ROOT + "large#1_abc", size);

        assertThat(read).isPresent();
        assertThat(read.get().length).isEqualTo(size);
        assertThat(sha256(read.get())).isEqualTo(expectedHash);
        read = null;
        assertThat(store.list(ROOT + "large")).extracting(CloudObject::size).containsExactly((long) size);
        assertThatThrownBy(() -> store.get(ROOT + "large#1_abc", size - 1))
                .isInstanceOf(OversizedObjectException.class);
    }

    /** Hybris hashes what the consumer sees, so it must be exactly the returned bytes, in order, once. */
    @Test
    void getWithAConsumerPassesItExactlyTheReturnedBytes() {
        for (int size : new int[] {0, 1, 100 << 10, (3 << 20) + 17}) {
            byte[] value = new byte[size];
            new Random(size).nextBytes(value);
            String key = ROOT + "streamed-" + size + "#1_abc";
            store.put(key, value);
            java.io.ByteArrayOutputStream seen = new java.io.ByteArrayOutputStream();

            Optional<byte[]> read = store.get(key, size, seen::write);

            assertThat(read).as("%d bytes", size).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
            assertThat(seen.toByteArray()).as("what the consumer saw of %d bytes", size).isEqualTo(value);
        }
        assertThat(store.get(ROOT + "streamed-missing#1_abc", 10, (b, o, l) -> fail("no bytes expected")))
                .isEmpty();
        assertThatThrownBy(() -> store.get(ROOT + "streamed-1#1_abc", 0, (b, o, l) -> { }))
                .isInstanceOf(OversizedObjectException.class);
    }

    @Test
    void concurrentPutsOfDistinctKeysAreAllReadable() throws Exception {
        int threads = 8;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        String key = ROOT + "parallel/t" + thread + "/k" + i + "#1_abc";
                        store.put(key, bytes(key));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                String key = ROOT + "parallel/t" + t + "/k" + i + "#1_abc";
                assertThat(store.get(key, 1024)).as(key).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes(key)));
            }
        }
        assertThat(store.list(ROOT + "parallel/")).hasSize(threads * perThread);
    }

    @Test
    void concurrentOverwritesOfOneKeyLeaveOneWrittenValueIntact() throws Exception {
        int writers = 8;
        int rounds = 15;
        String key = ROOT + "contended#1_abc";
        List<byte[]> values = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            byte[] v = new byte[(64 << 10) + w * 1031];
            java.util.Arrays.fill(v, (byte) (w + 1));
            values.add(v);
        }
        long maxBytes = values.get(writers - 1).length;
        store.put(key, values.get(0));
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                byte[] mine = values.get(w);
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        store.put(key, mine);
                    }
                    return null;
                }));
            }
            Future<Integer> reader = pool.submit(() -> {
                start.await();
                int reads = 0;
                do {
                    byte[] seen = store.get(key, maxBytes).orElseThrow(() -> new AssertionError(
                            "the object vanished while being overwritten"));
                    assertOneOf(seen, values);
                    reads++;
                } while (writing.get());
                return reads;
            });
            start.countDown();
            for (Future<?> f : futures) {
                f.get(2, TimeUnit.MINUTES);
            }
            writing.set(false);
            assertThat(reader.get(2, TimeUnit.MINUTES)).isPositive();
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }

        assertOneOf(store.get(key, maxBytes).orElseThrow(), values);
        assertThat(store.list(key)).hasSize(1);
    }

    @Test
    void getBeyondTheByteLimitThrowsAndAtTheLimitSucceeds() {
        byte[] value = new byte[1000];
        new Random(7).nextBytes(value);
        store.put(ROOT + "limited#1_abc", value);
        store.put(ROOT + "one-byte#1_abc", new byte[] {42});

        assertThatThrownBy(() -> store.get(ROOT + "limited#1_abc", 999))
                .isInstanceOfSatisfying(OversizedObjectException.class,
                        e -> assertThat(e.cloudId()).isEqualTo(store.id()));
        assertThatThrownBy(() -> store.get(ROOT + "limited#1_abc", 0))
                .isInstanceOf(OversizedObjectException.class);
        assertThatThrownBy(() -> store.get(ROOT + "one-byte#1_abc", 0))
                .isInstanceOf(OversizedObjectException.class);
        assertThat(store.get(ROOT + "limited#1_abc", 1000)).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        assertThat(store.get(ROOT + "limited#1_abc", Integer.MAX_VALUE)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(value));
        assertThat(store.get(ROOT + "one-byte#1_abc", 1)).hasValueSatisfying(
                v -> assertThat(v).containsExactly(42));
    }

    @Test
    @Timeout(30)
    void getWithTheLargestLimitReturnsTheObject() {
        store.put(ROOT + "unlimited#1_abc", bytes("no practical limit"));

        assertThat(store.get(ROOT + "unlimited#1_abc", Long.MAX_VALUE)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("no practical limit")));
    }

    @Test
    @Timeout(60)
    void wrongCredentialsGiveAPermanentErrorNotARetry() {
        Optional<Supplier<CloudStore>> factory = storeWithWrongCredentials();
        Assumptions.assumeTrue(factory.isPresent(), "this store has no credentials");

        assertThatThrownBy(() -> {
            try (CloudStore wrong = factory.get().get()) {
                wrong.put(ROOT + "denied#1_abc", bytes("must not be stored"));
                wrong.get(ROOT + "denied#1_abc", 100);
            }
        }).isInstanceOf(PermanentCloudException.class).hasMessageNotContaining("null");
        assertThat(store.get(ROOT + "denied#1_abc", 100)).isEmpty();
    }

    @Test
    @Timeout(60)
    void missingBucketGivesAPermanentErrorNamingIt() {
        Optional<Supplier<CloudStore>> factory = storeOverMissingBucket();
        Assumptions.assumeTrue(factory.isPresent(), "this store has no buckets");

        assertThatThrownBy(() -> {
            try (CloudStore missing = factory.get().get()) {
                missing.put(ROOT + "nowhere#1_abc", bytes("must not be stored"));
            }
        }).isInstanceOf(PermanentCloudException.class).hasMessageContaining(missingBucketName());
    }

    private static void assertOneOf(byte[] seen, List<byte[]> candidates) {
        for (byte[] c : candidates) {
            if (java.util.Arrays.equals(seen, c)) {
                return;
            }
        }
        fail("read " + seen.length + " bytes starting with " + (seen.length == 0 ? "nothing" : seen[0])
                + " that match none of the " + candidates.size() + " written values: a torn write");
    }

    private static List<String> keys(List<CloudObject> objects) {
        return objects.stream().map(CloudObject::key).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
