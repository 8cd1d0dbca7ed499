/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

class SlowCloudStoreTest {
    private static final Duration FOREVER = Duration.ofHours(1);
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");

    /** What a call on its own thread ended with, and whether its interrupt flag was set afterwards. */
    private record Outcome(Throwable failure, boolean interrupted) {
    }

    private static final class Caller {
        final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        final Thread thread;

        Caller(Runnable call) {
            thread = new Thread(() -> {
                Throwable failure = null;
                try {
                    call.run();
                } catch (Throwable t) {
                    failure = t;
                }
                outcome.complete(new Outcome(failure, Thread.currentThread().isInterrupted()));
            }, "slow-caller");
            thread.setDaemon(true);
            thread.start();
        }

        Caller awaitWaiting() {
            await().atMost(PROMPTLY).until(() -> thread.getState() == Thread.State.TIMED_WAITING);
            return this;
        }

        Outcome finish() throws Exception {
            return outcome.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void aDelayedGetTakesAtLeastTheDelay() {
        Duration delay = Duration.ofMillis(150);
        SlowCloudStore slow = SlowCloudStore.ofGets(mem, delay);
        mem.put("k#1_abc", bytes("v"));

        long start = System.nanoTime();
        assertThat(slow.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(delay);
        assertThat(slow.delay()).isEqualTo(delay);
    }

    @Test
    void anInterruptedWaitFailsPromptlyNamingTheInjectedSlownessAndKeepsTheFlag() throws Exception {
        SlowCloudStore slow = SlowCloudStore.ofGets(mem, FOREVER);
        mem.put("k#1_abc", bytes("v"));

        Caller caller = new Caller(() -> slow.get("k#1_abc", 10)).awaitWaiting();
        caller.thread.interrupt();
        Outcome outcome = caller.finish();

        assertThat(outcome.failure()).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("injected slowness").hasMessageContaining("k#1_abc");
        assertThat(outcome.interrupted()).isTrue();
    }

    @Test
    void ofDelaysEveryOperation() throws Exception {
        SlowCloudStore slow = SlowCloudStore.of(mem, FOREVER);
        mem.put("k#1_abc", bytes("v"));
        for (Consumer<SlowCloudStore> op : java.util.List.<Consumer<SlowCloudStore>>of(
                s -> s.put("new#1_abc", bytes("x")), s -> s.get("k#1_abc", 10), s -> s.list("k"),
                s -> s.delete("k#1_abc"))) {
            Caller caller = new Caller(() -> op.accept(slow)).awaitWaiting();
            caller.thread.interrupt();
            assertThat(caller.finish().failure()).isInstanceOf(TransientCloudException.class);
        }

        assertThat(mem.get("new#1_abc", 10)).isEmpty();
        assertThat(mem.get("k#1_abc", 10)).isPresent();
    }

    @Test
    void ofPutsDelaysOnlyPuts() throws Exception {
        SlowCloudStore slow = SlowCloudStore.ofPuts(mem, FOREVER);
        mem.put("k#1_abc", bytes("v"));

        assertTimeoutPreemptively(PROMPTLY, () -> {
            assertThat(slow.get("k#1_abc", 10)).isPresent();
            assertThat(slow.list("k")).hasSize(1);
            slow.delete("k#1_abc");
        });
        Caller caller = new Caller(() -> slow.put("new#1_abc", bytes("x"))).awaitWaiting();
        assertThat(mem.get("new#1_abc", 10)).isEmpty();

        slow.setActive(false);

        assertThat(caller.finish().failure()).isNull();
        assertThat(mem.get("new#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("x")));
    }

    @Test
    void ofGetsDelaysOnlyGets() throws Exception {
        SlowCloudStore slow = SlowCloudStore.ofGets(mem, FOREVER);

        assertTimeoutPreemptively(PROMPTLY, () -> {
            slow.put("k#1_abc", bytes("v"));
            assertThat(slow.list("k")).hasSize(1);
        });
        Caller caller = new Caller(() -> slow.get("k#1_abc", 10)).awaitWaiting();
        slow.setActive(false);
        assertThat(caller.finish().failure()).isNull();
    }

    @Test
    void switchingTheFaultOffRemovesTheDelay() {
        SlowCloudStore slow = SlowCloudStore.of(mem, FOREVER);
        slow.setActive(false);

        assertThat(slow.isActive()).isFalse();
        assertTimeoutPreemptively(PROMPTLY, () -> {
            slow.put("k#1_abc", bytes("v"));
            assertThat(slow.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
            assertThat(slow.list("k")).hasSize(1);
            slow.delete("k#1_abc");
        });
        assertThat(mem.list("")).isEmpty();
    }

    @Test
    void rejectsANegativeDelayQuotingIt() {
        assertThatThrownBy(() -> SlowCloudStore.of(mem, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> SlowCloudStore.ofPuts(mem, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("delay");
    }
}
