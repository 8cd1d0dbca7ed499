/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.support.ConfigValues;

import java.time.Duration;

/**
 * The deadline of the store call running on the current thread, which makes
 * {@link ZooKeeperMetadataStore#callTimeBound()} hold for a call made of several Curator requests. A single-request
 * call ({@code read}, {@code readAndWatch}, a conditional update) sets it on entry to connect-timeout +
 * operation-timeout + request-timeout from now; then:
 * <ul>
 *   <li>a Curator request starts only while connect-timeout + request-timeout remain ({@link #beforeRequest}):
 *       Curator may wait up to connect-timeout for a connection before sending it, and a request on a connected
 *       session fails after request-timeout ({@code zookeeper.request.timeout});</li>
 *   <li>the retry policy retries only while a backoff and another request-timeout remain
 *       ({@link #allowsRetry});</li>
 *   <li>a wait for a background answer (the read mode's {@code sync}) ends at the deadline
 *       ({@link #waitMillis}).</li>
 * </ul>
 * So a call ends by its deadline, whatever its number of requests, even if the connection is lost between them.
 * One limit: a Curator step of several requests (creating a container's znodes, or its change log, on the first
 * write to it) gives each request the request timeout; only a server that answers each just before its timeout
 * could stretch such a call past the deadline, one that stops answering cannot.
 * Calls without a deadline (listings, the change log) keep the per-request bounds alone. Thread-safe: the
 * deadline is per thread.
 */
final class CallDeadline {
    /** Added to the reported bound for thread scheduling and the rounding of Curator's and ZooKeeper's waits. */
    static final Duration MARGIN = Duration.ofSeconds(1);

    private final long spanNanos;
    private final long connectNanos;
    private final long requestNanos;
    private final Duration reported;
    private final String description;
    /** Per thread: whether a call is running, its deadline ({@link System#nanoTime()}), retries made (ever). */
    private final ThreadLocal<long[]> current = ThreadLocal.withInitial(() -> new long[3]);

    CallDeadline(Duration connectTimeout, Duration operationTimeout, Duration requestTimeout, String description) {
        Duration span = connectTimeout.plus(operationTimeout).plus(requestTimeout);
        this.spanNanos = span.toNanos();
        this.connectNanos = connectTimeout.toNanos();
        this.requestNanos = requestTimeout.toNanos();
        this.reported = span.plus(MARGIN);
        this.description = description;
    }

    /** The most one call can take: connect-timeout + operation-timeout + request-timeout, plus {@link #MARGIN}. */
    Duration bound() {
        return reported;
    }

    /**
     * Starts a call's deadline on this thread, unless one is running (a nested call keeps the outer deadline).
     *
     * @return whether this started it: pass it to {@link #end}
     */
    boolean begin() {
        long[] c = current.get();
        if (c[0] != 0) {
            return false;
        }
        c[0] = 1;
        c[1] = System.nanoTime() + spanNanos;
        return true;
    }

    /** Ends the call's deadline if {@code began}. */
    void end(boolean began) {
        if (began) {
            current.get()[0] = 0;
        }
    }

    /**
     * Checks that the running call (if any) has time for one more Curator request: a wait for the connection and
     * the request itself.
     *
     * @throws MetadataUnavailableException if it has not; a write's outcome is then unknown
     */
    void beforeRequest(String operation, String what) {
        long[] c = current.get();
        if (c[0] != 0 && c[1] - System.nanoTime() < connectNanos + requestNanos) {
            throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                    + " gave up: its call-time bound of " + ConfigValues.format(reported)
                    + " (connect-timeout + operation-timeout + request-timeout) leaves no time for another request"
                    + " after a slow or lost connection; a write's outcome is unknown");
        }
    }

    /** Whether the running call (if any) leaves time for a backoff of {@code sleepMs} and one more request. */
    boolean allowsRetry(long sleepMs) {
        long[] c = current.get();
        return c[0] == 0 || c[1] - System.nanoTime() >= sleepMs * 1_000_000L + requestNanos;
    }

    /** Counts a request re-sent on this thread (the retry policy allowed a retry). */
    void retrying() {
        current.get()[2]++;
    }

    /**
     * How many requests this thread has re-sent so far: a request during which it changed was re-sent after an
     * earlier send failed, and that send may have been applied with its answer lost.
     */
    long retries() {
        return current.get()[2];
    }

    /** How long to wait for a background answer: {@code maxMs}, cut to the running call's deadline (if any). */
    long waitMillis(long maxMs) {
        long[] c = current.get();
        if (c[0] == 0) {
            return maxMs;
        }
        return Math.max(0, Math.min(maxMs, (c[1] - System.nanoTime()) / 1_000_000L));
    }
}
