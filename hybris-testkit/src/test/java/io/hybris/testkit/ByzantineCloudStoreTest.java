/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.ByzantineCloudStore.Mode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ByzantineCloudStoreTest {
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final ByzantineCloudStore byz = ByzantineCloudStore.of(mem);
    private final List<Thread> started = new ArrayList<>();

    @AfterEach
    void releaseHungCalls() throws InterruptedException {
        byz.mode(Mode.HONEST);
        for (Thread t : started) {
            t.join(PROMPTLY.toMillis());
        }
    }

    // ------------------------------------------------------------------ honest

    @Test
    void startsHonestAndPassesEveryCallThrough() {
        assertThat(byz.mode()).isEqualTo(Mode.HONEST);
        byz.put("k#1_abc", bytes("value"));

        assertThat(mem.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("value")));
        assertThat(byz.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("value")));
        assertThat(streamed("k#1_abc", 100)).isEqualTo(bytes("value"));
        assertThat(byz.get("missing", 100)).isEmpty();
        assertThatThrownBy(() -> byz.get("k#1_abc", 4)).isInstanceOf(OversizedObjectException.class);
        assertThat(byz.list("k")).extracting(CloudObject::key).containsExactly("k#1_abc");
        byz.delete("k#1_abc");
        assertThat(mem.list("")).isEmpty();

        assertThat(byz.faultsInjected()).isZero();
        assertThat(byz.faultsByMode()).containsOnlyKeys(Mode.values()).allSatisfy((m, n) -> assertThat(n).isZero());
        assertThat(byz.callTimeBound()).isEmpty();
        assertThat(byz.id()).isEqualTo("c1");
        assertThat(byz).hasToString("ByzantineCloudStore[HONEST, " + mem + "]");
    }

    @Test
    void rejectsNulls() {
        assertThatThrownBy(() -> ByzantineCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> byz.mode(null)).isInstanceOf(NullPointerException.class);
    }

    // ------------------------------------------------------------------ lying reads

    @Test
    void corruptFlipsOneByteOfTheStoredBytes() {
        byz.put("k#1_abc", bytes("hello world"));
        byz.put("empty#1_abc", new byte[0]);
        byz.mode(Mode.CORRUPT);

        byte[] expected = bytes("hello world");
        expected[5] = (byte) ~expected[5];
        assertThat(byz.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
        assertThat(streamed("k#1_abc", 100)).isEqualTo(expected);
        assertThat(byz.get("missing", 100)).isEmpty();
        assertThat(byz.get("empty#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEmpty());
        assertThat(mem.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("hello world")));

        assertThat(byz.faultsByMode().get(Mode.CORRUPT)).isEqualTo(2);
        assertThat(byz.faultsInjected()).isEqualTo(2);
    }

    @Test
    void staleServesThePreviousVersionOfTheSameKey() {
        byz.put("hybris/box/k#1_abc.1f", bytes("v1"));
        byz.put("hybris/box/k#2_abc.1f", bytes("v2"));
        byz.put("hybris/box/only#1_abc", bytes("lonely"));
        byz.put("plain", bytes("p1"));
        byz.put("plain", bytes("p2"));
        byz.mode(Mode.STALE);

        assertThat(byz.get("hybris/box/k#2_abc.1f", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
        assertThat(streamed("hybris/box/k#2_abc.1f", 100)).isEqualTo(bytes("v1"));
        assertThat(byz.get("plain", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("p1")));
        // nothing older seen: not found
        assertThat(byz.get("hybris/box/k#1_abc.1f", 100)).isEmpty();
        assertThat(byz.get("hybris/box/only#1_abc", 100)).isEmpty();
        // never seen and not stored: the honest answer, not a fault
        assertThat(byz.get("hybris/box/k#9_xyz", 100)).isEmpty();

        assertThat(byz.faultsByMode().get(Mode.STALE)).isEqualTo(5);
    }

    @Test
    void staleKeepsTheOlderVersionWhenTheSameObjectIsPutAgain() {
        byz.put("k#1_abc", bytes("v1"));
        byz.put("k#2_abc", bytes("v2"));
        byz.put("k#2_abc", bytes("v2 retried"));
        byz.mode(Mode.STALE);

        assertThat(byz.get("k#2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v1")));
    }

    @Test
    void staleDoesNotCountAnOlderVersionWithTheSameBytes() {
        byz.put("k#1_abc", bytes("same"));
        byz.put("k#2_abc", bytes("same"));
        byz.mode(Mode.STALE);

        assertThat(byz.get("k#2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("same")));
        assertThat(byz.faultsInjected()).isZero();
    }

    @Test
    void staleRespectsTheReadLimit() {
        byz.put("k#1_abc", bytes("a much longer first version"));
        byz.put("k#2_abc", bytes("short"));
        byz.mode(Mode.STALE);

        assertThatThrownBy(() -> byz.get("k#2_abc", 5))
                .isInstanceOfSatisfying(OversizedObjectException.class, e -> assertThat(e.cloudId()).isEqualTo("c1"));
        assertThat(byz.faultsByMode().get(Mode.STALE)).isEqualTo(1);
    }

    @Test
    void staleRemembersABoundedNumberOfKeysForgettingTheLeastRecentlyWritten() {
        byz.put("first#1_abc", bytes("old"));
        byz.put("first#2_abc", bytes("new"));
        byz.put("second#1_abc", bytes("old"));
        byz.put("second#2_abc", bytes("new"));
        for (int i = 0; i < ByzantineCloudStore.MAX_PREFIXES - 2; i++) {
            byz.put("filler" + i + "#1_abc", bytes("x"));
        }
        byz.put("second#2_abc", bytes("new again")); // written again: now the most recent
        byz.put("third#1_abc", bytes("x")); // one prefix too many: the least recently written goes
        byz.mode(Mode.STALE);

        assertThat(byz.get("first#2_abc", 100)).isEmpty();
        assertThat(byz.get("second#2_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("old")));
    }

    @Test
    void otherKeyServesTheBytesOfAnotherRecentPut() {
        byz.put("a#1_abc", bytes("alpha"));
        byz.put("b#1_abc", bytes("beta"));
        byz.mode(Mode.OTHER_KEY);

        assertThat(byz.get("a#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("beta")));
        assertThat(byz.get("b#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("alpha")));
        assertThat(streamed("a#1_abc", 100)).isEqualTo(bytes("beta"));
        assertThat(byz.get("missing", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("beta")));
        assertThatThrownBy(() -> byz.get("b#1_abc", 4)).isInstanceOf(OversizedObjectException.class);

        assertThat(byz.faultsByMode().get(Mode.OTHER_KEY)).isEqualTo(5);
    }

    @Test
    void otherKeySkipsObjectsWithTheSameBytesAndIsNotFoundWithoutAnother() {
        byz.put("a#1_abc", bytes("same"));
        byz.put("b#1_abc", bytes("same"));
        byz.mode(Mode.OTHER_KEY);

        assertThat(byz.get("a#1_abc", 100)).isEmpty();
        assertThat(byz.faultsByMode().get(Mode.OTHER_KEY)).isEqualTo(1);
    }

    @Test
    void otherKeyOnlyRemembersRecentPuts() {
        byz.put("old#1_abc", bytes("old"));
        for (int i = 0; i < ByzantineCloudStore.RECENT_PUTS; i++) {
            byz.put("k" + i + "#1_abc", bytes("same"));
        }
        byz.mode(Mode.OTHER_KEY);

        // the only put with other bytes has left the ring
        assertThat(byz.get("k0#1_abc", 100)).isEmpty();
    }

    @Test
    void truncatedServesTheFirstHalf() {
        byz.put("k#1_abc", bytes("0123456789"));
        byz.put("odd#1_abc", bytes("abc"));
        byz.mode(Mode.TRUNCATED);

        assertThat(byz.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("01234")));
        assertThat(streamed("k#1_abc", 100)).isEqualTo(bytes("01234"));
        assertThat(byz.get("odd#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("a")));
        assertThat(byz.get("missing", 100)).isEmpty();

        assertThat(byz.faultsByMode().get(Mode.TRUNCATED)).isEqualTo(3);
    }

    @Test
    void oversizedSendsGarbageAfterTheBytesAndIsCutAtTheLimit() {
        byte[] value = bytes("real bytes");
        byz.put("k#1_abc", value);
        byz.mode(Mode.OVERSIZED);
        long extra = ByzantineCloudStore.OVERSIZED_EXTRA_BYTES;

        assertThatThrownBy(() -> byz.get("k#1_abc", value.length))
                .isInstanceOfSatisfying(OversizedObjectException.class, e -> {
                    assertThat(e.cloudId()).isEqualTo("c1");
                    assertThat(e.getMessage()).contains("k#1_abc", String.valueOf(value.length));
                });
        assertThatThrownBy(() -> byz.get("k#1_abc", value.length + extra - 1))
                .isInstanceOf(OversizedObjectException.class);

        byte[] reply = byz.get("k#1_abc", value.length + extra).orElseThrow();
        assertThat(reply).hasSize((int) (value.length + extra));
        assertThat(Arrays.copyOf(reply, value.length)).isEqualTo(value);
        byte[] garbage = OversizedCloudStore.of(mem, extra).get("k#1_abc", Long.MAX_VALUE).orElseThrow();
        assertThat(reply).isEqualTo(garbage);
        assertThat(streamed("k#1_abc", Long.MAX_VALUE)).isEqualTo(garbage);
        assertThat(byz.get("missing", 100)).isEmpty();

        assertThat(byz.faultsByMode().get(Mode.OVERSIZED)).isEqualTo(4);
    }

    // ------------------------------------------------------------------ hang

    @Test
    void aHungGetProceedsToTheDelegateOnceTheModeIsSwitched() throws Exception {
        byz.put("k#1_abc", bytes("real"));
        byz.mode(Mode.HANG);

        Call<Optional<byte[]>> get = start(() -> byz.get("k#1_abc", 100));
        awaitHung(get);
        assertThat(get.result).isNotDone();
        assertThat(byz.faultsByMode().get(Mode.HANG)).isEqualTo(1);

        byz.mode(Mode.HONEST);

        assertThat(get.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS))
                .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("real")));
    }

    @Test
    void everyCallTypeHangsAndAReleasedPutReachesTheDelegate() throws Exception {
        byz.put("gone#1_abc", bytes("x"));
        byz.mode(Mode.HANG);

        Call<Void> put = start(() -> {
            byz.put("k#1_abc", bytes("v"));
            return null;
        });
        Call<List<CloudObject>> list = start(() -> byz.list(""));
        Call<Void> delete = start(() -> {
            byz.delete("gone#1_abc");
            return null;
        });
        Call<Optional<byte[]>> streamedGet = start(() -> byz.get("gone#1_abc", 100, (b, o, l) -> { }));
        awaitHung(put);
        awaitHung(list);
        awaitHung(delete);
        awaitHung(streamedGet);
        assertThat(mem.list("")).extracting(CloudObject::key).containsExactly("gone#1_abc");

        byz.mode(Mode.CORRUPT); // leaving HANG for any mode releases the calls, which then go to the delegate

        put.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        list.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        delete.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        streamedGet.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(mem.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(mem.get("gone#1_abc", 100)).isEmpty();
        assertThat(byz.faultsByMode().get(Mode.HANG)).isEqualTo(4);
    }

    @Test
    void aHungCallIsReleasedEvenIfTheModeReturnsToHangAtOnce() throws Exception {
        byz.put("k#1_abc", bytes("real"));
        byz.mode(Mode.HANG);
        Call<Optional<byte[]>> get = start(() -> byz.get("k#1_abc", 100));
        awaitHung(get);

        byz.mode(Mode.HONEST);
        byz.mode(Mode.HANG);

        assertThat(get.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS)).isPresent();
        assertThat(byz.mode()).isEqualTo(Mode.HANG);
    }

    @Test
    void anInterruptedHungCallFailsAsTransientWithItsFlagSet() throws Exception {
        byz.put("k#1_abc", bytes("real"));
        byz.mode(Mode.HANG);
        Call<Optional<byte[]>> get = start(() -> byz.get("k#1_abc", 100));
        awaitHung(get);

        get.thread.interrupt();

        assertThatThrownBy(() -> get.result.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(TransientCloudException.class, e -> {
                    assertThat(e.cloudId()).isEqualTo("c1");
                    assertThat(e.getMessage()).contains("c1", "k#1_abc", "interrupted");
                });
        assertThat(get.interruptedAfterwards).isTrue();
        assertThat(byz.mode()).isEqualTo(Mode.HANG);
    }

    // ------------------------------------------------------------------ writes, listings, outages

    @Test
    void dropWritesAcknowledgesPutsWithoutStoringThem() {
        byz.put("kept#1_abc", bytes("kept"));
        byz.mode(Mode.DROP_WRITES);

        byz.put("k#1_abc", bytes("dropped"));

        assertThat(mem.get("k#1_abc", 100)).isEmpty();
        assertThat(byz.get("kept#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("kept")));
        assertThat(byz.list("")).extracting(CloudObject::key).containsExactly("kept#1_abc");
        byz.delete("kept#1_abc");
        assertThat(mem.list("")).isEmpty();
        assertThat(byz.faultsByMode().get(Mode.DROP_WRITES)).isEqualTo(1);
        assertThat(byz.faultsInjected()).isEqualTo(1);
    }

    @Test
    void lyingListOmitsEveryOtherEntryAndInventsOne() {
        for (String k : List.of("p/a#1_x", "p/b#1_x", "p/c#1_x", "p/d#1_x", "p/e#1_x", "q/other#1_x")) {
            byz.put(k, bytes(k));
        }
        byz.mode(Mode.LYING_LIST);

        List<CloudObject> listed = byz.list("p/");

        assertThat(listed).extracting(CloudObject::key)
                .containsExactly("p/a#1_x", "p/c#1_x", "p/e#1_x", "p/zz-invented/x#1_liar");
        assertThat(mem.get("p/zz-invented/x#1_liar", 100)).isEmpty();
        assertThat(byz.list("none/")).extracting(CloudObject::key).containsExactly("none/zz-invented/x#1_liar");
        assertThat(byz.get("p/b#1_x", 100)).isPresent();
        assertThat(byz.faultsByMode().get(Mode.LYING_LIST)).isEqualTo(2);
    }

    @Test
    void lyingListNeverInventsAnObjectThatExists() {
        byz.put("p/zz-invented/x#1_liar", bytes("real"));
        byz.mode(Mode.LYING_LIST);

        assertThat(byz.list("p/")).extracting(CloudObject::key)
                .containsExactly("p/zz-invented/x#1_liar", "p/zz-invented/x#2_liar");
    }

    @Test
    void downFailsEveryCallWithoutReachingTheDelegate() {
        byz.put("k#1_abc", bytes("v"));
        byz.mode(Mode.DOWN);

        assertDown(() -> byz.put("new#1_abc", bytes("v")));
        assertDown(() -> byz.get("k#1_abc", 100));
        assertDown(() -> byz.get("k#1_abc", 100, (b, o, l) -> { }));
        assertDown(() -> byz.list(""));
        assertDown(() -> byz.delete("k#1_abc"));

        assertThat(mem.list("")).extracting(CloudObject::key).containsExactly("k#1_abc");
        assertThat(byz.faultsByMode().get(Mode.DOWN)).isEqualTo(5);
    }

    private void assertDown(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(TransientCloudException.class, e -> {
            assertThat(e.cloudId()).isEqualTo("c1");
            assertThat(e.getMessage()).contains("cloud c1 is down (injected)");
        });
    }

    // ------------------------------------------------------------------ counters

    @Test
    void faultsAreCountedPerModeInAnImmutableSnapshot() {
        byz.put("k#1_abc", bytes("v1"));
        byz.put("k#2_abc", bytes("v2"));
        byz.mode(Mode.CORRUPT);
        byz.get("k#2_abc", 100);
        byz.mode(Mode.STALE);
        byz.get("k#2_abc", 100);
        byz.get("k#2_abc", 100);
        byz.mode(Mode.DOWN);
        assertThatThrownBy(() -> byz.list("")).isInstanceOf(TransientCloudException.class);
        byz.mode(Mode.HONEST);
        byz.get("k#2_abc", 100);

        Map<Mode, Long> snapshot = byz.faultsByMode();
        assertThat(snapshot).containsEntry(Mode.CORRUPT, 1L).containsEntry(Mode.STALE, 2L)
                .containsEntry(Mode.DOWN, 1L).containsEntry(Mode.HONEST, 0L).hasSize(Mode.values().length);
        assertThat(byz.faultsInjected()).isEqualTo(4);
        assertThatThrownBy(() -> snapshot.put(Mode.HANG, 1L)).isInstanceOf(UnsupportedOperationException.class);

        byz.mode(Mode.CORRUPT);
        byz.get("k#2_abc", 100);
        assertThat(snapshot.get(Mode.CORRUPT)).isEqualTo(1L);
        assertThat(byz.faultsByMode().get(Mode.CORRUPT)).isEqualTo(2L);
    }

    // ------------------------------------------------------------------ streaming consumer

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theStreamingConsumerSeesExactlyTheBytesReturned(Mode mode) {
        byz.put("k#1_abc", bytes("first version"));
        byz.put("k#2_abc", bytes("second version"));
        byz.put("other#1_abc", bytes("another object"));
        if (mode == Mode.HANG) {
            return; // covered by the hang tests
        }
        byz.mode(mode);
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        Optional<byte[]> returned;
        try {
            returned = byz.get("k#2_abc", Long.MAX_VALUE, seen::write);
        } catch (TransientCloudException e) {
            assertThat(mode).isEqualTo(Mode.DOWN);
            return;
        }
        assertThat(returned).hasValueSatisfying(v -> assertThat(seen.toByteArray()).isEqualTo(v));
    }

    // ------------------------------------------------------------------ HONEST satisfies the contract

    /** In {@link Mode#HONEST} the decorator is a complete pass-through: the whole {@link CloudStoreContract}. */
    @Nested
    class HonestContract extends CloudStoreContract {
        @Override
        protected CloudStore newStore() {
            return ByzantineCloudStore.of(new InMemoryCloudStore("honest1"));
        }
    }

    // ------------------------------------------------------------------ end to end

    @ParameterizedTest
    @EnumSource(value = Mode.class, names = {"CORRUPT", "STALE", "OTHER_KEY", "TRUNCATED", "OVERSIZED", "DOWN"})
    void hybrisStillReadsTheRightValueThroughOneByzantineCloud(Mode mode) {
        List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                new InMemoryCloudStore("c2"));
        ByzantineCloudStore nemesis = ByzantineCloudStore.of(raw.get(0));
        byte[] value = new byte[1000];
        new Random(7).nextBytes(value);
        try (Hybris h = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(100)).timerInitial(Duration.ofMillis(400))
                .cloud(nemesis).cloud(raw.get(1)).cloud(raw.get(2)).build())) {
            h.put("box", "other", bytes("another value"));
            h.put("box", "k", bytes("an older value"));
            h.put("box", "k", value);
            assertThat(h.describe("box", "k").orElseThrow().clouds()).contains("c0");

            nemesis.mode(mode);
            for (int i = 0; i < 3; i++) {
                assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
            }
            assertThat(nemesis.faultsByMode().get(mode)).as("faults injected by c0").isPositive();

            nemesis.mode(Mode.HONEST);
            assertThat(h.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value));
        }
    }

    // ------------------------------------------------------------------ helpers

    private byte[] streamed(String objectKey, long maxBytes) {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        Optional<byte[]> returned = byz.get(objectKey, maxBytes, seen::write);
        assertThat(returned).isPresent();
        assertThat(seen.toByteArray()).as("bytes the consumer saw").isEqualTo(returned.get());
        return returned.get();
    }

    /** A call running on its own daemon thread. */
    private static final class Call<T> {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread thread;
        volatile boolean interruptedAfterwards;

        Call(Callable<T> body) {
            thread = new Thread(() -> {
                try {
                    T value = body.call();
                    interruptedAfterwards = Thread.currentThread().isInterrupted();
                    result.complete(value);
                } catch (Throwable t) {
                    interruptedAfterwards = Thread.currentThread().isInterrupted();
                    result.completeExceptionally(t);
                }
            }, "byzantine-call");
            thread.setDaemon(true);
        }
    }

    private <T> Call<T> start(Callable<T> body) {
        Call<T> call = new Call<>(body);
        started.add(call.thread);
        call.thread.start();
        return call;
    }

    /** Waits until the call's thread is parked (not spinning) inside the decorator. */
    private static void awaitHung(Call<?> call) {
        await().atMost(PROMPTLY).until(() -> call.thread.getState() == Thread.State.WAITING
                || call.thread.getState() == Thread.State.TIMED_WAITING);
        assertThat(call.result).isNotDone();
    }
}
