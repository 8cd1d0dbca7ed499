/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.testkit.RecordingCloudStore.Call;
import io.hybris.testkit.RecordingCloudStore.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordingCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final RecordingCloudStore recording = RecordingCloudStore.of(mem);

    @Test
    void recordsEveryCallInOrderAndForwardsIt() {
        recording.put("a/k#1_abc", bytes("v"));
        assertThat(recording.get("a/k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(recording.get("b/missing#1_abc", 10)).isEmpty();
        assertThat(recording.list("a/")).hasSize(1);
        recording.delete("a/k#1_abc");

        assertThat(recording.calls()).containsExactly(new Call(Op.PUT, "a/k#1_abc"), new Call(Op.GET, "a/k#1_abc"),
                new Call(Op.GET, "b/missing#1_abc"), new Call(Op.LIST, "a/"), new Call(Op.DELETE, "a/k#1_abc"));
        assertThat(recording.count(Op.GET)).isEqualTo(2);
        assertThat(recording.count(Op.GET, "missing")).isEqualTo(1);
        assertThat(recording.count(Op.PUT, "missing")).isZero();
        assertThat(recording.count(Op.LIST, "a/")).isEqualTo(1);
        assertThat(mem.list("")).isEmpty();
    }

    @Test
    void callsIsAnImmutableSnapshot() {
        recording.put("k", bytes("v"));
        List<Call> snapshot = recording.calls();
        recording.put("k2", bytes("v"));

        assertThat(snapshot).hasSize(1);
        assertThatThrownBy(() -> snapshot.add(new Call(Op.GET, "x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void resetForgetsAndInactiveDoesNotRecord() {
        recording.put("k", bytes("v"));
        recording.reset();
        assertThat(recording.calls()).isEmpty();

        recording.setActive(false);
        recording.get("k", 10);
        assertThat(recording.isActive()).isFalse();
        assertThat(recording.calls()).isEmpty();
    }

    @Test
    void failedCallsAreRecordedToo() {
        RecordingCloudStore overDown = RecordingCloudStore.of(UnavailableCloudStore.of(mem));

        assertThatThrownBy(() -> overDown.put("k", bytes("v"))).isInstanceOf(RuntimeException.class);
        assertThat(overDown.count(Op.PUT, "k")).isEqualTo(1);
    }

    @Test
    void recordsEveryCallFromManyThreads() throws Exception {
        int threads = 8;
        int perThread = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        recording.put("t" + thread + "/k" + i, bytes("v"));
                        recording.get("t" + thread + "/k" + i, 10);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get(1, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(recording.calls()).hasSize(2 * threads * perThread);
        assertThat(recording.count(Op.PUT)).isEqualTo(threads * perThread);
        assertThat(recording.count(Op.GET, "t3/")).isEqualTo(perThread);
    }
}
