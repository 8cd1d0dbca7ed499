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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class GatedCloudStoreTest {
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final GatedCloudStore gated = GatedCloudStore.of(mem, key -> key.contains("#"));

    private CompletableFuture<Void> putAsync(String key, String value) {
        return CompletableFuture.runAsync(() -> gated.put(key, bytes(value)), r -> {
            Thread t = new Thread(r, "gated-put");
            t.setDaemon(true);
            t.start();
        });
    }

    @Test
    void aMatchingPutIsHeldUntilTheGateOpens() throws Exception {
        CompletableFuture<Void> held = putAsync("k#1_abc", "v");

        assertThat(gated.awaitBlocked(1, PROMPTLY)).isTrue();
        assertThat(gated.blockedCount()).isEqualTo(1);
        assertThat(held).isNotDone();
        assertThat(mem.get("k#1_abc", 10)).isEmpty();

        gated.open();

        held.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(mem.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(gated.blockedCount()).isZero();
        assertThat(gated.isOpen()).isTrue();
        assertTimeoutPreemptively(PROMPTLY, () -> gated.put("k#2_abc", bytes("after")));
        assertThat(mem.get("k#2_abc", 10)).isPresent();
    }

    @Test
    void nonMatchingPutsAndOtherOperationsPassWhileAPutIsHeld() throws Exception {
        CompletableFuture<Void> held = putAsync("k#1_abc", "v");
        assertThat(gated.awaitBlocked(1, PROMPTLY)).isTrue();

        assertTimeoutPreemptively(PROMPTLY, () -> {
            gated.put("plain", bytes("p"));
            assertThat(gated.get("plain", 10)).isPresent();
            assertThat(gated.list("")).hasSize(1);
            gated.delete("plain");
        });
        assertThat(gated.awaitBlocked(2, Duration.ofMillis(50))).isFalse();
        assertThat(held).isNotDone();

        gated.open();
        held.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void awaitBlockedCountsSeveralHeldPuts() throws Exception {
        CompletableFuture<Void> first = putAsync("a#1_abc", "a");
        CompletableFuture<Void> second = putAsync("b#1_abc", "b");
        CompletableFuture<Void> third = putAsync("c#1_abc", "c");

        assertThat(gated.awaitBlocked(3, PROMPTLY)).isTrue();
        assertThat(gated.awaitBlocked(0, Duration.ZERO)).isTrue();

        gated.open();
        CompletableFuture.allOf(first, second, third).get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(mem.list("")).hasSize(3);
    }

    @Test
    void anInterruptedHeldPutFailsTransientlyKeepsTheFlagAndWritesNothing() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread thread = new Thread(() -> {
            try {
                gated.put("k#1_abc", bytes("v"));
            } catch (Throwable t) {
                failure.set(t);
            }
            interrupted.set(Thread.currentThread().isInterrupted());
        });
        thread.start();
        assertThat(gated.awaitBlocked(1, PROMPTLY)).isTrue();

        thread.interrupt();
        thread.join(PROMPTLY.toMillis());

        assertThat(thread.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("injected gate").hasMessageContaining("k#1_abc");
        assertThat(interrupted.get()).isTrue();
        assertThat(gated.blockedCount()).isZero();
        assertThat(mem.get("k#1_abc", 10)).isEmpty();
    }

    /**
     * A held put interrupted just before the gate opens: the JVM may wake it as notified (not as interrupted), with its
     * flag set. It used to see the gate open and write, so a closed client's part landed after close() returned (the
     * flaky {@code PartUploadInterruptsTest} case). Each round interrupts and opens back to back.
     */
    @Test
    void aHeldPutInterruptedAsTheGateOpensStillWritesNothing() throws Exception {
        for (int round = 0; round < 50; round++) {
            GatedCloudStore gate = GatedCloudStore.of(mem, key -> true);
            String key = "k#" + round;
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread thread = new Thread(() -> {
                try {
                    gate.put(key, bytes("v"));
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            thread.start();
            assertThat(gate.awaitBlocked(1, PROMPTLY)).isTrue();

            thread.interrupt();
            gate.open();
            thread.join(PROMPTLY.toMillis());

            assertThat(thread.isAlive()).isFalse();
            assertThat(failure.get()).as("round " + round).isInstanceOf(TransientCloudException.class);
            assertThat(mem.get(key, 10)).as("round " + round).isEmpty();
        }
    }

    @Test
    void switchingTheFaultOffReleasesHeldPutsAndLetsLaterOnesPass() throws Exception {
        CompletableFuture<Void> held = putAsync("k#1_abc", "v");
        assertThat(gated.awaitBlocked(1, PROMPTLY)).isTrue();

        gated.setActive(false);

        held.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS);
        assertThat(gated.isActive()).isFalse();
        assertThat(gated.isOpen()).isFalse();
        assertTimeoutPreemptively(PROMPTLY, () -> gated.put("k#2_abc", bytes("w")));
        assertThat(mem.list("k#")).hasSize(2);
    }

    @Test
    void rejectsANegativeCountQuotingIt() {
        assertThatThrownBy(() -> gated.awaitBlocked(-2, PROMPTLY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }
}
