/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.ReadOptions;
import io.hybris.ReadSettings;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.ValueCache;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The weak read modes of the value cache (docs/cache.md) against a plain PUT that completes "overwritten" (a newer
 * plain write committed between its metadata read and its update, so it is linearized just before that write and
 * commits nothing): such a PUT must neither become this client's latest own write for read-your-writes, over a newer
 * own write that completed before it, nor stamp its bounded-time entry with a time after the newer write committed.
 * And a write that fails after it may have landed evicts the bounded-versions entry: a refresh of an older version
 * still in flight must not bring an entry back. Interleavings are put in order by held metadata calls and cache
 * reads, time by a controllable clock; the cache is a map.
 */
class WeakReadsUnderWriteRulesTest {
    private static final String C = "docs";
    private static final Duration MAX = Duration.ofSeconds(20);
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final MapCache cache = new MapCache();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, MetadataStore store, CacheSettings.Builder settings, MutableClock clock) {
        return opened.open(OpenedClients.config(store, raw).clientId(clientId).deadline(MAX).clock(clock)
                .reads(ReadSettings.builder().hedge(false).build()).cache(settings.cache(cache).build()));
    }

    private void awaitEntry(String suffix) {
        await().atMost(MAX).until(() -> cache.entries.keySet().stream().anyMatch(k -> k.endsWith(suffix)));
    }

    /**
     * One client: PUT x1 reads v0 and its update is held; PUT x2 reads v0 too and commits (newer: a later write id);
     * a third PUT fails (its update throws), so read-your-writes forgets the key; then x1's update conflicts with x2
     * and completes, linearized just before x2. A read-your-writes read started after all of it must not return x1:
     * x2 is newer and was acknowledged before the read started.
     */
    @Test
    void readYourWritesNeverServesAnOwnWriteOverwrittenByANewerOwnWriteAfterAFailedOne() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger updates = new AtomicInteger();
        MetadataStore store = new ForwardingMetadataStore(metadata) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                int n = updates.incrementAndGet();
                if (n == 2) { // x1
                    held.countDown();
                    waitFor(go);
                } else if (n == 4) { // the failing third PUT
                    throw new IllegalStateException("injected: the store lost this update");
                }
                super.conditionalUpdate(update);
            }
        };
        MutableClock clock = new MutableClock();
        Hybris a = open("a", store, CacheSettings.builder(), clock);
        a.put(C, "k", "v0".getBytes());

        CompletableFuture<VersionInfo> x1 = CompletableFuture.supplyAsync(() -> a.put(C, "k", "x1".getBytes()));
        assertThat(held.await(MAX.toSeconds(), TimeUnit.SECONDS)).as("x1's update held").isTrue();
        VersionInfo x2 = a.put(C, "k", "x2".getBytes());
        assertThatThrownBy(() -> a.put(C, "k", "x3".getBytes())).isInstanceOf(HybrisException.class);
        go.countDown();
        VersionInfo v1 = x1.get(MAX.toSeconds(), TimeUnit.SECONDS);
        assertThat(a.describe(C, "k").map(VersionInfo::version)).as("x1 ordered before x2").contains(x2.version());
        awaitEntry("#" + v1.version()); // x1's write-through: a read-your-writes read of x1 would be a cache hit

        assertThat(new String(a.get(C, "k", ReadOptions.readYourWrites()).orElseThrow()))
                .as("read-your-writes after x2 was acknowledged").isEqualTo("x2");
    }

    /**
     * Client a (with Δ) reads v0 for its PUT x, and the answer reaches it only after client b (without Δ) committed
     * y and 5 s went by; x then finds y newer and completes, linearized just before y, at b's commit. Its bounded-time
     * entry must not claim x was current later than that: a bounded-time read Δ - 1 s after x completed, Δ + 4 s after
     * y committed, must not return x.
     */
    @Test
    void boundedTimeEntryOfAnOverwrittenPutIsNotStampedAfterTheWriteThatOverwroteIt() throws Exception {
        Duration delta = Duration.ofSeconds(10);
        CountDownLatch arm = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        MetadataStore slowAnswers = new ForwardingMetadataStore(metadata) {
            @Override
            public Optional<VersionedValue> read(MetadataKey key) {
                Optional<VersionedValue> read = super.read(key);
                if (arm.getCount() == 0 && held.getCount() > 0) {
                    held.countDown(); // read at the store; its answer arrives late
                    waitFor(go);
                }
                return read;
            }
        };
        MutableClock clock = new MutableClock();
        Hybris a = open("a", slowAnswers, CacheSettings.builder().stalenessTime(delta), clock);
        Hybris b = open("b", metadata, CacheSettings.builder(), clock);
        b.put(C, "k", "v0".getBytes());

        arm.countDown();
        CompletableFuture<VersionInfo> x = CompletableFuture.supplyAsync(() -> a.put(C, "k", "x".getBytes()));
        assertThat(held.await(MAX.toSeconds(), TimeUnit.SECONDS)).as("a's metadata read held").isTrue();
        VersionInfo y = b.put(C, "k", "y".getBytes());
        clock.advance(Duration.ofSeconds(5));
        go.countDown();
        x.get(MAX.toSeconds(), TimeUnit.SECONDS);
        assertThat(b.describe(C, "k").map(VersionInfo::version)).as("x ordered before y").contains(y.version());
        awaitEntry("~time"); // x's bounded-time entry (b writes none)

        clock.advance(delta.minusSeconds(1));
        assertThat(new String(a.get(C, "k", ReadOptions.boundedStalenessTime()).orElseThrow()))
                .as("a bounded-time read Δ + 4 s after y committed").isEqualTo("y");
    }

    /**
     * Client a with η = 2: its GET of v2 refreshes the bounded-versions entry, and that refresh is held before it
     * reads the entry; v3 and v4 follow (v4 refreshes the entry); v5 lands but its answer is lost, so the entry is
     * evicted before the PUT throws. Then the held refresh of v2 goes on (it found no entry, and put v2 there). A
     * bounded-versions read must then return one of the 2 newest versions (v5, v4), never v2.
     */
    @Test
    void aRefreshHeldAcrossAFailedWritesEvictionDoesNotBringBackAnOlderVersion() throws Exception {
        AtomicBoolean loseNextAnswer = new AtomicBoolean();
        MetadataStore store = new ForwardingMetadataStore(metadata) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                super.conditionalUpdate(update);
                if (loseNextAnswer.compareAndSet(true, false)) {
                    throw new IllegalStateException("injected: connection lost after the update was sent");
                }
            }
        };
        HeldVersionsEntryReads held = new HeldVersionsEntryReads(cache);
        Hybris a = opened.open(OpenedClients.config(store, raw).clientId("a").deadline(MAX)
                .reads(ReadSettings.builder().hedge(false).build())
                .cache(CacheSettings.builder().stalenessVersions(2).cache(held).build()));
        a.put(C, "k", "v1".getBytes());
        a.put(C, "k", "v2".getBytes()); // counter 0: cached under the plain key
        awaitEntry("~versions");
        byte[] ofV2 = versionsEntry();

        held.arm();
        assertThat(new String(a.get(C, "k").orElseThrow())).isEqualTo("v2"); // its refresh of the entry is held
        assertThat(held.held.await(MAX.toSeconds(), TimeUnit.SECONDS)).as("the GET's refresh held").isTrue();
        a.put(C, "k", "v3".getBytes());
        a.put(C, "k", "v4".getBytes()); // counter 0: replaces the entry
        await().atMost(MAX).until(() -> versionsEntry() != null && !Arrays.equals(versionsEntry(), ofV2));
        byte[] ofV4 = versionsEntry();
        loseNextAnswer.set(true);
        assertThatThrownBy(() -> a.put(C, "k", "v5".getBytes())).isInstanceOf(HybrisException.class);
        assertThat(Arrays.equals(versionsEntry(), ofV4)).as("v4's entry evicted before the PUT threw").isFalse();
        held.go.countDown();
        await().atMost(MAX).until(held::finished); // the held refresh ran to its end

        assertThat(a.get(C, "k", ReadOptions.boundedStalenessVersions()).map(String::new))
                .as("a bounded-versions read (η = 2) after v5 landed").get().isIn("v5", "v4");
    }

    /**
     * A PUT that fails before its update is sent (nothing landed) leaves a barrier at the version it replaced, not
     * at its own: the next bounded-versions GET misses, reads that version and caches it again, and the one after
     * is a hit — the key does not stay out of the cache until its next write or the entry's expiry.
     */
    @Test
    void aFailedWriteThatDidNotLandLeavesTheKeyCachedAgainByTheNextGet() {
        AtomicBoolean failNext = new AtomicBoolean();
        MetadataStore store = new ForwardingMetadataStore(metadata) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                if (failNext.compareAndSet(true, false)) {
                    throw new IllegalStateException("injected: the update was not sent");
                }
                super.conditionalUpdate(update);
            }
        };
        Hybris a = opened.open(OpenedClients.config(store, raw).clientId("a").deadline(MAX)
                .reads(ReadSettings.builder().hedge(false).build())
                .cache(CacheSettings.builder().stalenessVersions(2).cache(cache).build()));
        a.put(C, "k", "v1".getBytes());
        a.put(C, "k", "v2".getBytes());
        awaitEntry("~versions");
        failNext.set(true);
        assertThatThrownBy(() -> a.put(C, "k", "v3".getBytes())).isInstanceOf(HybrisException.class);
        byte[] barrier = versionsEntry();

        assertThat(a.get(C, "k", ReadOptions.boundedStalenessVersions()).map(String::new)).hasValue("v2");
        await().atMost(MAX).until(() -> !Arrays.equals(versionsEntry(), barrier)); // the miss's refresh, async
        assertThat(a.get(C, "k", ReadOptions.boundedStalenessVersions()).map(String::new)).hasValue("v2");
    }

    private byte[] versionsEntry() {
        return cache.entries.entrySet().stream().filter(e -> e.getKey().endsWith("~versions"))
                .map(e -> e.getValue().value()).findFirst().orElse(null);
    }

    /** {@link MapCache}, holding the first read of a bounded-versions entry once armed, until {@link #go}. */
    private static final class HeldVersionsEntryReads implements ValueCache {
        private final MapCache map;
        private volatile boolean armed;
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        private final AtomicBoolean passed = new AtomicBoolean();
        private volatile Thread holding;

        HeldVersionsEntryReads(MapCache map) {
            this.map = map;
        }

        void arm() {
            armed = true;
        }

        /** Whether the held refresh went on after {@link #go} and has left the cache layer. */
        boolean finished() {
            return passed.get() && Arrays.stream(holding.getStackTrace())
                    .noneMatch(f -> f.getClassName().endsWith(".CacheLayer"));
        }

        @Override
        public long maxValueSize() {
            return map.maxValueSize();
        }

        @Override
        public Optional<byte[]> get(String key) {
            return map.get(key);
        }

        @Override
        public Optional<Versioned> getVersioned(String key) {
            if (armed && key.endsWith("~versions") && held.getCount() > 0) {
                holding = Thread.currentThread();
                held.countDown();
                waitFor(go);
                passed.set(true);
            }
            return map.getVersioned(key);
        }

        @Override
        public void put(String key, byte[] value, Duration expiry) {
            map.put(key, value, expiry);
        }

        @Override
        public boolean putIfAbsent(String key, byte[] value, Duration expiry) {
            return map.putIfAbsent(key, value, expiry);
        }

        @Override
        public boolean compareAndSet(String key, byte[] value, Duration expiry, long casToken) {
            return map.compareAndSet(key, value, expiry, casToken);
        }

        @Override
        public void delete(String key) {
            map.delete(key);
        }

        @Override
        public String describe() {
            return "held " + map.describe();
        }

        @Override
        public void close() {
            map.close();
        }
    }

    private static void waitFor(CountDownLatch go) {
        try {
            go.await(MAX.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
