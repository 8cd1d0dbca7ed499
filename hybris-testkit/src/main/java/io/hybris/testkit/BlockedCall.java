/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import org.awaitility.Awaitility;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * A call run on its own thread until it blocks where a test wants it (inside a request to a server that stopped
 * answering, say), then ended from outside: by closing what it calls, or by interrupting it. Tells what the call
 * threw, whether its thread was still interrupted then, and how long it took to end after the push. For the tests
 * that check that {@code close()} and interrupts end calls at once, whatever the server does.
 *
 * <pre>{@code
 * BlockedCall call = BlockedCall.start("writer", () -> store.conditionalUpdate(update),
 *         BlockedCall.inClass("org.apache.zookeeper."));
 * BlockedCall.Ended ended = call.endBy(store::close, Duration.ofSeconds(30));
 * assertThat(ended.thrown()).isInstanceOf(MetadataStoreException.class);
 * }</pre>
 */
public final class BlockedCall {
    private final Thread thread;
    private final AtomicReference<Throwable> thrown = new AtomicReference<>();
    private volatile boolean interruptedWhenThrown;

    private BlockedCall(String name, ThrowingRunnable call) {
        this.thread = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable t) {
                interruptedWhenThrown = Thread.currentThread().isInterrupted();
                thrown.set(t);
            }
        }, name);
    }

    /** Starts {@code call} on a new thread named {@code name} and waits (10 s at most) until {@code blocked} holds. */
    public static BlockedCall start(String name, ThrowingRunnable call, Predicate<Thread> blocked) {
        BlockedCall c = new BlockedCall(name, Objects.requireNonNull(call, "call"));
        c.thread.start();
        Awaitility.await(name + " blocks where the test wants it").atMost(Duration.ofSeconds(10))
                .until(() -> blocked.test(c.thread));
        return c;
    }

    /** Whether a frame of the thread's stack is in a class whose name starts with {@code prefix}. */
    public static Predicate<Thread> inClass(String prefix) {
        return t -> Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().startsWith(prefix));
    }

    /** Whether a frame of the thread's stack is method {@code method} of class {@code type}. */
    public static Predicate<Thread> inMethod(Class<?> type, String method) {
        return t -> Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals(type.getName())
                && f.getMethodName().equals(method));
    }

    /** Runs {@code push} (a close, say), then waits up to {@code limit} for the call to end. */
    public Ended endBy(ThrowingRunnable push, Duration limit) throws Exception {
        long t0 = System.nanoTime();
        push.run();
        thread.join(limit.toMillis());
        return new Ended(!thread.isAlive(), thrown.get(), interruptedWhenThrown,
                Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Interrupts the call's thread, then waits up to {@code limit} for the call to end. */
    public Ended interrupt(Duration limit) throws Exception {
        return endBy(thread::interrupt, limit);
    }

    /** An action that may throw (a call whose result, if any, is not needed). */
    @FunctionalInterface
    public interface ThrowingRunnable {
        /** Runs it. */
        void run() throws Exception;
    }

    /**
     * How the call ended.
     *
     * @param ended       whether it ended within the limit
     * @param thrown      what it threw (null if it returned)
     * @param interrupted whether its thread was interrupted when it threw
     * @param took        how long it took to end after the push
     */
    public record Ended(boolean ended, Throwable thrown, boolean interrupted, Duration took) {
    }
}
