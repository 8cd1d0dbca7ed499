/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The contract every {@link MetadataStore} implementation must meet, as an abstract JUnit Jupiter suite: extend
 * it, return a fresh, empty store from {@link #newStore()} and every test below runs against it.
 *
 * <pre>{@code
 * class MyMetadataStoreContractTest extends MetadataStoreContract {
 *     @Override
 *     protected MetadataStore newStore() {
 *         return MyMetadataStore.connect(server.address(), "/test-" + UUID.randomUUID());
 *     }
 * }
 * }</pre>
 *
 * <p>Each test asserts an exact outcome: the bytes and versions read back, which update won, which exception
 * was thrown and that nothing else changed. Watches are awaited with Awaitility, never with sleeps; that a
 * watch did <em>not</em> fire is shown by a later watch on the same key that did fire after a later change
 * (stores deliver notifications in order, so the first watch would have fired before it).
 *
 * <p>A subclass may override {@link #closeStore} (default: {@link MetadataStore#close()}) and
 * {@link #watchTimeout()} (default 10 s). Tests of one instance run sequentially; each gets its own store.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class MetadataStoreContract extends MetadataStoreFixture {
    // ------------------------------------------------------------------ read and conditional update

    @Test
    void readOfMissingKeyIsEmpty() {
        assertThat(store.read(key("photos", "missing"))).isEmpty();
    }

    @Test
    void createThenReadReturnsValueAndVersion() throws Exception {
        MetadataKey k = key("photos", "cat.jpg");
        store.conditionalUpdate(new MetadataUpdate(k, bytes("meta-1"), MetadataVersion.ABSENT));

        VersionedValue read = readExisting(k);
        assertThat(read.value()).isEqualTo(bytes("meta-1"));
        assertThat(read.version().isAbsent()).isFalse();
        assertThat(readExisting(k).version()).isEqualTo(read.version());
    }

    @Test
    void createOfExistingKeyConflictsAndKeepsValue() throws Exception {
        MetadataKey k = key("photos", "cat.jpg");
        MetadataVersion v = create(k, "first");

        assertThatThrownBy(() -> store.conditionalUpdate(
                new MetadataUpdate(k, bytes("second"), MetadataVersion.ABSENT)))
                .isInstanceOf(VersionConflictException.class);

        VersionedValue read = readExisting(k);
        assertThat(text(read)).isEqualTo("first");
        assertThat(read.version()).isEqualTo(v);
    }

    @Test
    void updateWithCurrentVersionSucceedsAndChangesVersion() throws Exception {
        MetadataKey k = key("photos", "cat.jpg");
        MetadataVersion v1 = create(k, "v1");

        store.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v1));

        VersionedValue read = readExisting(k);
        assertThat(text(read)).isEqualTo("v2");
        assertThat(read.version()).isNotEqualTo(v1);
        assertThat(read.version().isAbsent()).isFalse();

        store.conditionalUpdate(new MetadataUpdate(k, bytes("v3"), read.version()));
        VersionedValue third = readExisting(k);
        assertThat(text(third)).isEqualTo("v3");
        assertThat(third.version()).isNotIn(v1, read.version());
    }

    @Test
    void updateWithStaleVersionConflictsAndWritesNothing() throws Exception {
        MetadataKey k = key("photos", "cat.jpg");
        MetadataVersion stale = create(k, "v1");
        MetadataVersion current = update(k, "v2");

        assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(k, bytes("lost"), stale)))
                .isInstanceOf(VersionConflictException.class);

        VersionedValue read = readExisting(k);
        assertThat(text(read)).isEqualTo("v2");
        assertThat(read.version()).isEqualTo(current);
    }

    @Test
    void updateOfMissingKeyWithAVersionConflictsAndCreatesNothing() throws Exception {
        MetadataVersion someVersion = create(key("photos", "other"), "x");
        MetadataKey missing = key("photos", "missing");

        assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(missing, bytes("y"), someVersion)))
                .isInstanceOf(VersionConflictException.class);

        assertThat(store.read(missing)).isEmpty();
        assertThat(keys(store.list("photos", "", null, 10))).containsExactly("other");
    }

    @Test
    void emptyValueRoundTrips() throws Exception {
        MetadataKey k = key("photos", "empty");
        create(k, "");
        assertThat(readExisting(k).value()).isEmpty();
    }

    // ------------------------------------------------------------------ atomic multi-key update

    @Test
    void conditionalUpdateAllAppliesMixedCreatesAndUpdates() throws Exception {
        MetadataKey a = key("docs", "a");
        MetadataKey b = key("docs", "b");
        MetadataKey c = key("docs", "c");
        MetadataVersion va = create(a, "a1");
        MetadataVersion vb = create(b, "b1");

        store.conditionalUpdateAll(List.of(
                new MetadataUpdate(a, bytes("a2"), va),
                new MetadataUpdate(b, bytes("b2"), vb),
                new MetadataUpdate(c, bytes("c1"), MetadataVersion.ABSENT)));

        VersionedValue ra = readExisting(a);
        VersionedValue rb = readExisting(b);
        assertThat(text(ra)).isEqualTo("a2");
        assertThat(ra.version()).isNotEqualTo(va);
        assertThat(text(rb)).isEqualTo("b2");
        assertThat(rb.version()).isNotEqualTo(vb);
        assertThat(text(readExisting(c))).isEqualTo("c1");
    }

    @Test
    void conditionalUpdateAllWithOneStaleVersionAppliesNone() throws Exception {
        MetadataKey a = key("docs", "a");
        MetadataKey b = key("docs", "b");
        MetadataKey c = key("docs", "c");
        MetadataVersion va = create(a, "a1");
        MetadataVersion staleB = create(b, "b1");
        MetadataVersion vb = update(b, "b2");
        MetadataVersion vc = create(c, "c1");

        assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(a, bytes("a-new"), va),
                new MetadataUpdate(b, bytes("b-new"), staleB),
                new MetadataUpdate(c, bytes("c-new"), vc))))
                .isInstanceOf(VersionConflictException.class);

        assertUnchanged(a, "a1", va);
        assertUnchanged(b, "b2", vb);
        assertUnchanged(c, "c1", vc);
    }

    @Test
    void conditionalUpdateAllWithAnExistingKeyToCreateAppliesNone() throws Exception {
        MetadataKey a = key("docs", "a");
        MetadataKey b = key("docs", "b");
        MetadataKey fresh = key("docs", "fresh");
        MetadataVersion va = create(a, "a1");
        MetadataVersion vb = create(b, "b1");

        assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(fresh, bytes("f"), MetadataVersion.ABSENT),
                new MetadataUpdate(a, bytes("a-new"), va),
                new MetadataUpdate(b, bytes("b-new"), MetadataVersion.ABSENT))))
                .isInstanceOf(VersionConflictException.class);

        assertUnchanged(a, "a1", va);
        assertUnchanged(b, "b1", vb);
        assertThat(store.read(fresh)).isEmpty();
        assertThat(keys(store.list("docs", "", null, 10))).containsExactly("a", "b");
    }

    @Test
    void conditionalUpdateAllWithAMissingKeyToUpdateCreatesNothing() throws Exception {
        MetadataVersion someVersion = create(key("docs", "existing"), "e");
        MetadataKey created = key("docs", "created");
        MetadataKey missing = key("docs", "missing");

        assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(created, bytes("c"), MetadataVersion.ABSENT),
                new MetadataUpdate(missing, bytes("m"), someVersion))))
                .isInstanceOf(VersionConflictException.class);

        assertThat(store.read(created)).isEmpty();
        assertThat(store.read(missing)).isEmpty();
    }

    @Test
    void conditionalUpdateAllCreatesKeysInContainersNotSeenBefore() throws Exception {
        MetadataKey left = key("left", "k");
        MetadataKey right = key("right", "k");

        store.conditionalUpdateAll(List.of(
                new MetadataUpdate(left, bytes("l"), MetadataVersion.ABSENT),
                new MetadataUpdate(right, bytes("r"), MetadataVersion.ABSENT)));

        assertThat(text(readExisting(left))).isEqualTo("l");
        assertThat(text(readExisting(right))).isEqualTo("r");
    }

    @Test
    void conditionalUpdateAllOfNothingIsANoOp() throws Exception {
        store.conditionalUpdateAll(List.of());
        assertThat(store.list("docs", "", null, 10).entries()).isEmpty();
    }

    @Test
    void conditionalUpdateAllRejectsTheSameKeyTwice() throws Exception {
        MetadataKey k = key("docs", "twice");
        assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(k, bytes("1"), MetadataVersion.ABSENT),
                new MetadataUpdate(k, bytes("2"), MetadataVersion.ABSENT))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.read(k)).isEmpty();
    }

    // ------------------------------------------------------------------ watches

    @Test
    void watchFiresExactlyOnceAfterAChange() throws Exception {
        MetadataKey k = key("photos", "watched");
        MetadataVersion v1 = create(k, "v1");
        AtomicInteger fired = new AtomicInteger();

        WatchedRead watched = store.readAndWatch(k, fired::incrementAndGet);

        assertThat(watched.current()).isPresent();
        assertThat(text(watched.current().get())).isEqualTo("v1");
        assertThat(watched.current().get().version()).isEqualTo(v1);
        assertThat(fired).hasValue(0);

        update(k, "v2");
        eventually().until(() -> fired.get() == 1);

        update(k, "v3");
        AtomicInteger later = new AtomicInteger();
        WatchedRead second = store.readAndWatch(k, later::incrementAndGet);
        assertThat(text(second.current().orElseThrow())).isEqualTo("v3");
        update(k, "v4");
        eventually().until(() -> later.get() == 1);
        assertThat(fired).as("the first watch fires once only").hasValue(1);

        watched.subscription().cancel(); // after firing: a no-op
        watched.subscription().cancel();
        second.subscription().cancel();
        assertThat(fired).hasValue(1);
    }

    @Test
    void cancelledWatchDoesNotFire() throws Exception {
        MetadataKey k = key("photos", "watched");
        create(k, "v1");
        AtomicInteger cancelled = new AtomicInteger();
        WatchedRead watched = store.readAndWatch(k, cancelled::incrementAndGet);

        watched.subscription().cancel();
        update(k, "v2");
        AtomicInteger live = new AtomicInteger();
        WatchedRead signal = store.readAndWatch(k, live::incrementAndGet);
        assertThat(text(signal.current().orElseThrow())).isEqualTo("v2");
        update(k, "v3");
        eventually().until(() -> live.get() == 1);

        assertThat(cancelled).as("callback of the cancelled watch").hasValue(0);
        watched.subscription().cancel(); // twice: a no-op
        signal.subscription().cancel();
    }

    @Test
    void watchOnMissingKeyFiresOnCreation() throws Exception {
        MetadataKey k = key("photos", "later");
        AtomicInteger fired = new AtomicInteger();

        WatchedRead watched = store.readAndWatch(k, fired::incrementAndGet);
        assertThat(watched.current()).isEmpty();
        assertThat(fired).hasValue(0);

        create(k, "created");
        eventually().until(() -> fired.get() == 1);

        update(k, "updated");
        AtomicInteger later = new AtomicInteger();
        store.readAndWatch(k, later::incrementAndGet);
        update(k, "again");
        eventually().until(() -> later.get() == 1);
        assertThat(fired).hasValue(1);
    }

    @Test
    void watchFiresOnAtomicMultiKeyUpdate() throws Exception {
        MetadataKey a = key("docs", "a");
        MetadataKey b = key("docs", "b");
        MetadataVersion va = create(a, "a1");
        AtomicInteger onA = new AtomicInteger();
        AtomicInteger onB = new AtomicInteger();
        store.readAndWatch(a, onA::incrementAndGet);
        store.readAndWatch(b, onB::incrementAndGet);

        store.conditionalUpdateAll(List.of(
                new MetadataUpdate(a, bytes("a2"), va),
                new MetadataUpdate(b, bytes("b1"), MetadataVersion.ABSENT)));

        eventually().until(() -> onA.get() == 1 && onB.get() == 1);
    }

    @Test
    void watchIsNotFiredByChangesToOtherKeys() throws Exception {
        MetadataKey watchedKey = key("photos", "a");
        MetadataKey sameNameOtherContainer = key("videos", "a");
        MetadataKey otherKey = key("photos", "b");
        create(watchedKey, "a1");
        AtomicInteger fired = new AtomicInteger();
        WatchedRead watched = store.readAndWatch(watchedKey, fired::incrementAndGet);

        create(sameNameOtherContainer, "x");
        create(otherKey, "y");
        AtomicInteger signal = new AtomicInteger();
        store.readAndWatch(otherKey, signal::incrementAndGet);
        update(otherKey, "y2");
        eventually().until(() -> signal.get() == 1);

        assertThat(fired).hasValue(0);
        watched.subscription().cancel();
    }

    // ------------------------------------------------------------------ list

    @Test
    void listOfUnknownContainerIsEmpty() {
        MetadataPage page = store.list("never-used", "", null, 100);
        assertThat(page.entries()).isEmpty();
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void listReturnsEntriesInEncodedKeyOrder() throws Exception {
        List<String> keys = List.of("b", "a b", "a-b", "a.b", "a_b", "aB", "A", "a~b", "a/b", "ab", "0", "é",
                "z", "😀", ".x", "a", "a%b");
        for (String k : keys) {
            create(key("photos", k), "value of " + k);
        }

        MetadataPage page = store.list("photos", "", null, 1000);

        assertThat(keys(page)).containsExactlyElementsOf(sortedByEncoding(keys));
        assertThat(page.hasMore()).isFalse();
        for (MetadataEntry e : page.entries()) {
            VersionedValue read = readExisting(key("photos", e.key()));
            assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo("value of " + e.key());
            assertThat(e.version()).isEqualTo(read.version());
        }
    }

    @Test
    void listFiltersByPrefix() throws Exception {
        List<String> keys = List.of("photos/2024/a", "photos/2025/b", "photos", "photosx", "photo", "video/c",
                "Photos/d");
        for (String k : keys) {
            create(key("media", k), k);
        }

        assertThat(keys(store.list("media", "photos/", null, 100)))
                .containsExactly("photos/2024/a", "photos/2025/b");
        assertThat(keys(store.list("media", "photos", null, 100)))
                .containsExactlyElementsOf(sortedByEncoding(List.of("photos", "photos/2024/a", "photos/2025/b",
                        "photosx")));
        assertThat(keys(store.list("media", "", null, 100))).containsExactlyElementsOf(sortedByEncoding(keys));
        MetadataPage none = store.list("media", "music/", null, 100);
        assertThat(none.entries()).isEmpty();
        assertThat(none.hasMore()).isFalse();
    }

    @Test
    void listWithPrefixAndStartAfterBeforeThePrefixIncludesTheKeyEqualToThePrefix() throws Exception {
        for (String k : List.of("a", "photos", "photos/1", "q")) {
            create(key("media", k), k);
        }

        assertThat(keys(store.list("media", "photos", "a", 100))).containsExactly("photos", "photos/1");
        assertThat(keys(store.list("media", "photos", "photos", 100))).containsExactly("photos/1");
        assertThat(keys(store.list("media", "photos", "q", 100))).isEmpty();
    }

    @Test
    void listPagesThroughManyKeysWithStartAfterAndLimit() throws Exception {
        List<String> keys = IntStream.range(0, 2500).mapToObj(i -> "item-" + i).toList();
        createAll("big", keys);
        List<String> expected = sortedByEncoding(keys);

        List<String> seen = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        List<Boolean> hasMore = new ArrayList<>();
        String startAfter = null;
        while (true) {
            MetadataPage page = store.list("big", "", startAfter, 1000);
            pageSizes.add(page.entries().size());
            hasMore.add(page.hasMore());
            seen.addAll(keys(page));
            if (!page.hasMore()) {
                break;
            }
            startAfter = page.entries().get(page.entries().size() - 1).key();
        }

        assertThat(pageSizes).containsExactly(1000, 1000, 500);
        assertThat(hasMore).containsExactly(true, true, false);
        assertThat(seen).containsExactlyElementsOf(expected);

        MetadataPage exact = store.list("big", "", expected.get(1499), 1000);
        assertThat(keys(exact)).containsExactlyElementsOf(expected.subList(1500, 2500));
        assertThat(exact.hasMore()).as("nothing after the last key").isFalse();

        MetadataPage lastOne = store.list("big", "", expected.get(2498), 1);
        assertThat(keys(lastOne)).containsExactly(expected.get(2499));
        assertThat(lastOne.hasMore()).isFalse();

        String between = expected.get(41) + "~"; // sorts after key 41 and before key 42, and is not a key itself
        assertThat(keys(store.list("big", "", between, 2))).containsExactly(expected.get(42), expected.get(43));

        List<String> withPrefix = expected.stream().filter(k -> k.startsWith("item-1")).toList();
        assertThat(withPrefix).hasSize(1111);
        List<String> prefixed = new ArrayList<>();
        List<Integer> prefixedSizes = new ArrayList<>();
        startAfter = null;
        MetadataPage page;
        do {
            page = store.list("big", "item-1", startAfter, 500);
            prefixedSizes.add(page.entries().size());
            prefixed.addAll(keys(page));
            startAfter = page.entries().isEmpty() ? startAfter : page.entries().get(page.entries().size() - 1).key();
        } while (page.hasMore());
        assertThat(prefixedSizes).containsExactly(500, 500, 111);
        assertThat(prefixed).containsExactlyElementsOf(withPrefix);
    }

    @Test
    void keysWithEveryAllowedKindOfCharacterRoundTrip() throws Exception {
        List<String> keys = List.of(
                "unicode-ü-ß-日本語-Ωμέγα", "slash/in/key", "/leading-slash", "trailing-slash/",
                "double//slash", "hash#tag", "#", "percent%20literal", "100%", "%", "%2F", "with space",
                " leading-space", "trailing-space ", ".hidden", ".", "..", "...", "../escape", "emoji-😀🎉",
                "👨‍👩‍👧", "quote'\"",
                "back\\slash", "star*?<>|:", "plus+equals=&;,", "tilde~", "zookeeper", "CON", "@{}[]()!$^`",
                "\u00a0nbsp", "a".repeat(256), "😀".repeat(64));
        createAll("odd", keys);
        Map<String, String> valueOf = new LinkedHashMap<>();
        keys.forEach(k -> valueOf.put(k, "value of " + k));

        for (String k : keys) {
            VersionedValue read = readExisting(key("odd", k));
            assertThat(text(read)).as("value of key %s", k).isEqualTo(valueOf.get(k));
        }
        MetadataPage page = store.list("odd", "", null, 1000);
        assertThat(keys(page)).containsExactlyElementsOf(sortedByEncoding(keys));
        for (MetadataEntry e : page.entries()) {
            assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo(valueOf.get(e.key()));
        }
        assertThat(keys(store.list("odd", ".", null, 100)))
                .containsExactlyElementsOf(sortedByEncoding(List.of(".hidden", ".", "..", "...", "../escape")));
        assertThat(keys(store.list("odd", "%", null, 100)))
                .containsExactlyElementsOf(sortedByEncoding(List.of("%", "%2F")));
        assertThat(keys(store.list("odd", "😀", null, 100))).containsExactly("😀".repeat(64));
    }

    // ------------------------------------------------------------------ containers

    @Test
    void containersAreIsolated() throws Exception {
        MetadataKey inAlpha = key("alpha", "k");
        MetadataKey inBeta = key("beta", "k");
        MetadataVersion va = create(inAlpha, "from alpha");
        create(inBeta, "from beta");
        create(key("alpha-2", "k2"), "from alpha-2");

        assertThat(text(readExisting(inAlpha))).isEqualTo("from alpha");
        assertThat(text(readExisting(inBeta))).isEqualTo("from beta");
        assertThat(store.read(key("beta", "k2"))).isEmpty();
        assertThat(keys(store.list("alpha", "", null, 10))).containsExactly("k");
        assertThat(keys(store.list("beta", "", null, 10))).containsExactly("k");
        assertThat(keys(store.list("alpha-2", "", null, 10))).containsExactly("k2");
        assertThat(store.list("gamma", "", null, 10).entries()).isEmpty();

        store.conditionalUpdate(new MetadataUpdate(inAlpha, bytes("alpha 2"), va));
        assertThat(text(readExisting(inBeta))).isEqualTo("from beta");
        store.conditionalUpdate(new MetadataUpdate(key("beta", "k2"), bytes("beta k2"), MetadataVersion.ABSENT));
        assertThat(text(readExisting(key("alpha-2", "k2")))).isEqualTo("from alpha-2");
        assertThat(store.containers()).containsExactly("alpha", "alpha-2", "beta");
    }

    @Test
    void emptyStoreHasNoContainers() {
        assertThat(store.containers()).isEmpty();
    }

    // ------------------------------------------------------------------ concurrency

    @Test
    void concurrentReadModifyWriteIncrementsLoseNoUpdate() throws Exception {
        MetadataKey counter = key("counters", "hits");
        create(counter, "0");
        int threads = 8;
        int incrementsPerThread = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger successes = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        Set<Long> written = ConcurrentHashMap.newKeySet();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    int done = 0;
                    for (int attempt = 0; done < incrementsPerThread; attempt++) {
                        if (attempt > 100_000) {
                            throw new AssertionError("no progress after " + attempt + " attempts");
                        }
                        VersionedValue cur = readExisting(counter);
                        long next = Long.parseLong(text(cur)) + 1;
                        try {
                            store.conditionalUpdate(new MetadataUpdate(counter, bytes(Long.toString(next)),
                                    cur.version()));
                        } catch (VersionConflictException e) {
                            conflicts.incrementAndGet();
                            continue;
                        }
                        done++;
                        successes.incrementAndGet();
                        assertThat(written.add(next)).as("value %d written twice: a lost update", next).isTrue();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(100, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(successes).hasValue(threads * incrementsPerThread);
        assertThat(text(readExisting(counter))).isEqualTo(Integer.toString(successes.get()));
        assertThat(written).hasSize(successes.get());
    }

}
