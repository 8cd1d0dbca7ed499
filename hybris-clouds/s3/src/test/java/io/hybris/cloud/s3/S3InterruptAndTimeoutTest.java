/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.AbortSignalChecks;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A cloud that stops answering, made with a toxiproxy proxy in front of MinIO: an interrupted request ends at
 * once (not after its timeout) and keeps the interrupt flag; a request that gets no answer ends after the
 * request timeout; both as {@link TransientCloudException}s, and the store works again once the cloud answers.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class S3InterruptAndTimeoutTest {
    private static final byte[] VALUE = "still here".getBytes(StandardCharsets.UTF_8);
    private static final String KEY = "hybris/c/k#1_a";

    private Minio minio;
    private String bucket;
    private Toxiproxy.Proxy proxy;

    @BeforeEach
    void setUp() {
        minio = Minio.require();
        bucket = Minio.freshBucket();
        minio.createBucket(bucket);
        proxy = new Toxiproxy(minio.env().toxiproxyApi()).create("s3-driver-test", minio.endpoint());
    }

    @AfterEach
    void tearDown() {
        if (proxy != null) {
            proxy.delete();
        }
        if (minio != null) {
            minio.deleteBucket(bucket);
            minio.close();
        }
    }

    private S3CloudStore.Builder viaProxy() {
        return S3CloudStore.builder("slow").endpoint(proxy.endpoint()).credentials(minio.accessKey(),
                minio.secretKey()).bucket(bucket);
    }

    @Test
    void anInterruptedGetEndsAtOnceKeepsTheFlagAndTheStoreStillWorks() throws Exception {
        try (S3CloudStore store = viaProxy().requestTimeout(Duration.ofSeconds(60)).build()) {
            store.put(KEY, VALUE);
            proxy.latency(Duration.ofSeconds(60));

            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean flagKept = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(1);
            Thread caller = new Thread(() -> {
                started.countDown();
                try {
                    store.get(KEY, 100);
                } catch (Throwable t) {
                    thrown.set(t);
                    flagKept.set(Thread.currentThread().isInterrupted());
                }
            }, "interrupted-caller");
            caller.start();
            started.await();
            // the caller waits for its worker, which is blocked on the delayed response
            await().atMost(Duration.ofSeconds(10)).until(() -> caller.getState() == Thread.State.WAITING);
            long t0 = System.nanoTime();
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(10));

            assertThat(caller.isAlive()).as("caller still blocked after its interrupt").isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(thrown.get()).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("cloud 'slow': get of '" + KEY + "' interrupted");
            assertThat(flagKept).isTrue();
            // the aborted request's connection was closed, so its worker is no longer blocked reading it
            await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().startsWith("hybris-s3-slow-")
                            && t.getState() == Thread.State.RUNNABLE));

            proxy.latency(Duration.ZERO);
            assertThat(store.get(KEY, 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        }
    }

    /**
     * On a thread with an {@link io.hybris.spi.support.AbortSignal} bound (as Hybris's I/O threads have) the GET runs
     * on that thread, and firing the signal, with no interrupt, aborts its HTTP request: the call ends at once.
     */
    @Test
    void aGetUnderAnAbortSignalRunsOnTheCallingThreadAndTheSignalEndsIt() throws Exception {
        try (S3CloudStore store = viaProxy().requestTimeout(Duration.ofSeconds(60)).build()) {
            store.put(KEY, VALUE);
            AbortSignalChecks.signalEndsABlockedGetOnTheCallingThread(store, KEY, VALUE, proxy, "hybris-s3-slow-");
        }
    }

    @Test
    void anInterruptedPutEndsAtOnce() throws Exception {
        try (S3CloudStore store = viaProxy().requestTimeout(Duration.ofSeconds(60)).build()) {
            proxy.latency(Duration.ofSeconds(60));
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    store.put(KEY, new byte[1 << 20]);
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            caller.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> caller.getState() == Thread.State.WAITING);
            caller.interrupt();

            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("put of '" + KEY + "' (1048576 bytes) interrupted");
        }
    }

    @Test
    void anAlreadyInterruptedCallerSendsNothing() {
        try (S3CloudStore store = viaProxy().build()) {
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(() -> store.get(KEY, 100)).isInstanceOf(TransientCloudException.class)
                        .hasMessageContaining("not started: the calling thread is interrupted");
                assertThat(Thread.currentThread().isInterrupted()).isTrue();
            } finally {
                Thread.interrupted();
            }
            assertThat(store.get(KEY, 100)).isEmpty();
        }
    }

    @Test
    void aRequestWithoutAnswerTimesOutAfterTheRequestTimeout() {
        try (S3CloudStore store = viaProxy().requestTimeout(Duration.ofSeconds(1)).build()) {
            store.put(KEY, VALUE);
            proxy.latency(Duration.ofSeconds(30));
            long t0 = System.nanoTime();

            assertThatThrownBy(() -> store.get(KEY, 100)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(900),
                    Duration.ofSeconds(10));

            proxy.latency(Duration.ZERO);
            assertThat(store.get(KEY, 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        }
    }

    /**
     * {@code request-timeout} bounds one attempt "body transfer included" (docs/clouds-s3.md): a body that trickles
     * in, never pausing as long as the socket timeout, is cut off at the request timeout too, not read for as long
     * as the server cares to take.
     */
    @Test
    void aBodyThatTricklesInIsCutOffAtTheRequestTimeout() {
        try (S3CloudStore store = viaProxy().requestTimeout(Duration.ofSeconds(1)).build()) {
            byte[] big = new byte[400_000];
            store.put(KEY, big);
            proxy.bandwidth(40); // 40 KB/s: the whole body would take about 10 s
            long t0 = System.nanoTime();

            assertThatThrownBy(() -> store.get(KEY, big.length)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("timed out").hasMessageContaining("request-timeout");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(900),
                    Duration.ofSeconds(4));

            proxy.bandwidth(0);
            assertThat(store.get(KEY, big.length)).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
        }
    }

    @Test
    void anUnreachableServerAtStartUpIsLoggedNotFatalAndRequestsFailTransiently() {
        proxy.disable();
        try (S3CloudStore store = viaProxy().connectTimeout(Duration.ofSeconds(2)).build()) {
            assertThatThrownBy(() -> store.put(KEY, VALUE)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("put of '" + KEY + "'");
            proxy.enable();
            store.put(KEY, VALUE);
            assertThat(store.get(KEY, 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(VALUE));
        }
    }
}
