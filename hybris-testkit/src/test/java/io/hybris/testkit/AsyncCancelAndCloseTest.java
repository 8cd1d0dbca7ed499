/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The async twins' futures: {@code cancel(true)} must interrupt the call it cancels (a cancelled put must not go on
 * to commit, its thread must not stay blocked in the caller's stream), and {@code close()} must end an async call
 * blocked in the caller's stream, as it ends every other call in flight, instead of leaving the client's thread
 * blocked and the future pending forever.
 */
class AsyncCancelAndCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final StreamingFixture fx = new StreamingFixture();
    private final BlockingSource source = new BlockingSource(value(3 * CHUNK, 7), 2 * CHUNK);

    @AfterEach
    void close() {
        source.release.countDown();
        fx.close();
    }

    /**
     * Returns its bytes until {@code blockAt}, then blocks (interruptibly) until released; records whether its
     * reading thread was interrupted by the time the block ended.
     */
    private static final class BlockingSource extends BulkInputStream {
        final byte[] bytes;
        final int blockAt;
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        int pos;

        BlockingSource(byte[] bytes, int blockAt) {
            this.bytes = bytes;
            this.blockAt = blockAt;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos == blockAt && !interrupted.isDone()) {
                reached.countDown();
                try {
                    release.await();
                    interrupted.complete(Thread.currentThread().isInterrupted());
                } catch (InterruptedException e) {
                    interrupted.complete(true);
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("source read interrupted");
                }
            }
            if (pos == bytes.length) {
                return -1;
            }
            int n = Math.min(len, (pos < blockAt ? blockAt : bytes.length) - pos);
            System.arraycopy(bytes, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    @Test
    void cancellingAPutAsyncInterruptsThePutItCancelled() throws Exception {
        Hybris h = fx.open();
        CompletableFuture<VersionInfo> put = h.putAsync(C, "k", source, 3L * CHUNK);
        assertThat(source.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        assertThat(put.cancel(true)).isTrue();
        source.release.countDown(); // a put not interrupted by the cancel reads on (and commits)

        assertThat(source.interrupted.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("the thread running the cancelled put was interrupted by cancel(true)").isTrue();
    }

    @Test
    void closingTheClientEndsAPutAsyncBlockedInTheCallersStream() throws Exception {
        Hybris h = fx.open();
        CompletableFuture<VersionInfo> put = h.putAsync(C, "k", source, 3L * CHUNK);
        assertThat(source.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        h.close();
        source.release.countDown(); // lets a thread close() did not end go on

        assertThat(source.interrupted.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .as("close() interrupted the async put blocked in its source").isTrue();
        Throwable e = catchThrowable(() -> put.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertThat(e).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ClientClosedException.class);
    }
}
