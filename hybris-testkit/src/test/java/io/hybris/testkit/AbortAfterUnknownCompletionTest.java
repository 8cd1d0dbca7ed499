/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.VersionName;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An abort of an upload in parts whose completion on the same client may still commit: the completion's caller was
 * interrupted with its metadata update on the wire (outcome unknown), or the completion is still running on another
 * thread. Before, the abort read the key, saw the upload not committed yet and deleted every chunk; the update then
 * landed and the key's current value had no chunks (every GET failed). Now such an abort leaves the chunks to the
 * orphan sweep, which deletes them only if the version never commits; the client refuses the upload afterwards.
 */
class AbortAfterUnknownCompletionTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final StreamingFixture fx = new StreamingFixture();
    private final GatedMetadataStore gate = new GatedMetadataStore(fx.metadata);

    @AfterEach
    void close() {
        gate.open();
        fx.close();
    }

    private static byte[] expected() {
        byte[] v = new byte[CHUNK + 7];
        System.arraycopy(value(CHUNK + 1, 1), 0, v, 0, CHUNK + 1);
        System.arraycopy(value(6, 2), 0, v, CHUNK + 1, 6);
        return v;
    }

    /** A client on the gated metadata store, its upload of two parts, and that upload's completion on the wire. */
    private record OnTheWire(Hybris h, PartUploads parts, PartUpload upload, Thread completing,
                             AtomicReference<Throwable> thrown) {
    }

    /** Starts an upload of two parts and completes it on a thread of its own, held with its update on the wire. */
    private OnTheWire completionOnTheWire() {
        Hybris h = fx.open(b -> b.metadataStore(gate));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(6, 2)), 6);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                parts.complete(upload, List.of(p1, p2), PutOptions.none());
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        assertThat(gate.awaitHeld(1, WAIT)).as("the completion's update is on the wire").isTrue();
        return new OnTheWire(h, parts, upload, t, thrown);
    }

    /** After {@code h} closed (waiting for its background deletions): the objects of {@code before}, readable. */
    private void assertNothingDeletedAndReadable(Hybris h, List<String> before) {
        h.close();
        assertThat(fx.objectsOf("k")).as("nothing deleted").containsExactlyInAnyOrderElementsOf(before);
        Hybris reader = fx.open(b -> b.clientId("r1"));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected()));
    }

    @Test
    void anAbortAfterAnInterruptedCompletionLeavesItsChunksAndTheLateCommitIsReadable() throws Exception {
        OnTheWire w = completionOnTheWire();
        w.completing().interrupt();
        w.completing().join(WAIT.toMillis());
        assertThat(w.completing().isAlive()).isFalse();
        assertThat(w.thrown().get()).isInstanceOfSatisfying(CallInterruptedException.class,
                e -> assertThat(e.outcomeUnknown()).isTrue());
        List<String> before = fx.objectsOf("k");

        w.parts().abort(w.upload()); // the key does not show the upload committed (yet)

        assertThatThrownBy(() -> w.parts().complete(w.upload(), List.of(), PutOptions.none()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("aborted");
        gate.open(); // the interrupted completion's update lands
        assertThat(gate.awaitPassed(1, WAIT)).isTrue();
        assertThat(gate.failures()).isEmpty();
        assertNothingDeletedAndReadable(w.h(), before);
    }

    @Test
    void anAbortWhileACompletionRunsLeavesItsChunksAndTheCommitIsReadable() throws Exception {
        OnTheWire w = completionOnTheWire();
        List<String> before = fx.objectsOf("k");

        w.parts().abort(w.upload()); // against the documented rule, from another thread of the same client

        gate.open();
        w.completing().join(WAIT.toMillis());
        assertThat(w.completing().isAlive()).isFalse();
        assertThat(w.thrown().get()).isNull();
        assertNothingDeletedAndReadable(w.h(), before);
    }

    @Test
    void anAbortAfterACompletionRefusedBeforeItsUpdateStillDeletesTheChunks() {
        // a failed precondition is checked before anything is sent: nothing can land, so the abort deletes at once
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        h.put(C, "k", value(10, 9));
        assertThatThrownBy(() -> parts.complete(upload, List.of(p1), PutOptions.ifAbsent()))
                .isInstanceOf(io.hybris.PreconditionFailedException.class);

        parts.abort(upload);

        await().atMost(WAIT).untilAsserted(() -> assertThat(fx.objectsOf("k")).as("only the newer value's copies")
                .hasSize(2).allSatisfy(n -> assertThat(VersionName.parseChunk(StreamingFixture.PREFIX, n)).isEmpty()));
    }

    /**
     * Two completions of one upload on one client: one still running (held at its first read of the key, before it
     * stored anything) and one that failed at once (it named no part). The failed one's end must not count as the
     * running one's: the abort that follows still sees a completion running, leaves the chunks, and the running
     * completion commits a readable value. Guards the per-upload count of running completions.
     */
    @Test
    void anAbortAfterOneOfTwoCompletionsFailedStillLeavesTheChunksOfTheOneRunning() throws Exception {
        AtomicBoolean holdNextRead = new AtomicBoolean();
        CountDownLatch readHeld = new CountDownLatch(1);
        CountDownLatch releaseRead = new CountDownLatch(1);
        ForwardingMetadataStore heldRead = new ForwardingMetadataStore(fx.metadata) {
            @Override
            public Optional<VersionedValue> read(MetadataKey key) {
                if (holdNextRead.compareAndSet(true, false)) {
                    readHeld.countDown();
                    try {
                        if (!releaseRead.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                            throw new IllegalStateException("read never released");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return super.read(key);
            }
        };
        Hybris h = fx.open(b -> b.metadataStore(heldRead));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(6, 2)), 6);
        List<String> before = fx.objectsOf("k");
        holdNextRead.set(true);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread running = new Thread(() -> {
            try {
                parts.complete(upload, List.of(p1, p2), PutOptions.none());
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        running.start();
        assertThat(readHeld.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the completion is running").isTrue();
        assertThatThrownBy(() -> parts.complete(upload, List.of(), PutOptions.none()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("names no part");

        parts.abort(upload); // against the documented rule, from another thread of the same client

        releaseRead.countDown();
        running.join(WAIT.toMillis());
        assertThat(running.isAlive()).isFalse();
        assertThat(thrown.get()).isNull();
        h.close(); // waits for its background deletions
        assertThat(fx.objectsOf("k")).as("every chunk stored, and the committed manifest's 2 copies")
                .containsAll(before).hasSize(before.size() + 2);
        Hybris reader = fx.open(b -> b.clientId("r1"));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected()));
    }
}
