/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeadlineExceededException;
import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PutOptions;
import io.hybris.RewrapReport;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.crypto.SecretKey;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KEK rotation ({@code rewrapDataKeys}) racing the other writers of the same keys, each race held in a chosen order
 * (a metadata update held with {@link HeldUpdates}, an upload held at a {@link GatedCloudStore}, a stream that
 * pauses): no acknowledged write is lost or left under the old KEK, no value becomes unreadable once the old KEK is
 * dropped, the report counts what the run did, and a rewrap whose metadata store stops answering fails at the
 * deadline instead of hanging.
 */
class RewrapRacesTest {
    private static final String C = "vault";
    private static final int CHUNK = 64 << 10;
    private static final Duration AWAIT = Duration.ofSeconds(20);

    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k3 = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(KeyProvider keys, MetadataStore metadata, List<? extends CloudStore> clouds,
                        Duration deadline) {
        return opened.open(OpenedClients.config(metadata, clouds).encryption(keys).deadline(deadline)
                .chunkThreshold(CHUNK).chunkSize(CHUNK));
    }

    private Hybris open(KeyProvider keys, MetadataStore metadata) {
        return open(keys, metadata, raw, Duration.ofSeconds(10));
    }

    private Hybris open(KeyProvider keys) {
        return open(keys, store);
    }

    private static EnvelopeKeyProvider envelope(String current, Object... idAndKey) {
        Map<String, SecretKey> keks = new HashMap<>();
        for (int i = 0; i < idAndKey.length; i += 2) {
            keks.put((String) idAndKey[i], (SecretKey) idAndKey[i + 1]);
        }
        return EnvelopeKeyProvider.of(keks, current);
    }

    private static byte[] random(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        return v;
    }

    private static <T> T within(CompletableFuture<T> f) throws Exception {
        return f.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A stream of {@code value} that after {@code pauseAt} bytes signals {@code reached} and waits for {@code go}. */
    private static final class PausingStream extends InputStream {
        private final InputStream in;
        private final int pauseAt;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private int read;

        PausingStream(byte[] value, int pauseAt) {
            this.in = new ByteArrayInputStream(value);
            this.pauseAt = pauseAt;
        }

        private void maybePause() throws IOException {
            if (read == pauseAt) {
                reached.countDown();
                try {
                    if (!go.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new IOException("not released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }

        @Override
        public int read() throws IOException {
            maybePause();
            int b = in.read();
            if (b >= 0) {
                read++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            maybePause();
            int n = in.read(b, off, read < pauseAt ? Math.min(len, pauseAt - read) : len);
            if (n > 0) {
                read += n;
            }
            return n;
        }
    }

    // ------------------------------------------------------------------ defects

    /**
     * The rotation lists metadata page by page; a listing that never answers (a partitioned metadata store) used to
     * be waited for up to a year, as if the rotation had no deadline. Each listing is one metadata call, bounded by
     * {@code hybris.deadline} as every other call is (the scrub's listings are).
     */
    @Test
    void aRewrapWhoseMetadataListingHangsFailsAtTheDeadline() throws Exception {
        AtomicBoolean hang = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        MetadataStore hanging = new ForwardingMetadataStore(store) {
            @Override
            public MetadataPage list(String container, String prefix, String startAfter, int limit) {
                if (hang.get()) {
                    try {
                        release.await(AWAIT.toMillis() * 3, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.list(container, prefix, startAfter, limit);
            }
        };
        try {
            Hybris h = open(envelope("k2", "k1", k1, "k2", k2), hanging, raw, Duration.ofSeconds(1));
            h.put(C, "k", random(10, 1));
            hang.set(true);
            CompletableFuture<RewrapReport> run = CompletableFuture.supplyAsync(h::rewrapDataKeys);
            assertThatThrownBy(() -> within(run)).as("the rotation ends at the deadline")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(DeadlineExceededException.class);
        } finally {
            release.countDown();
        }
    }

    /**
     * A write sealed under the old KEK (its upload, or its stream, still running) when the provider's current KEK
     * switched, then committed after the rotation visited the key: it used to commit its data key under the old KEK,
     * after a rotation that reported nothing left to do, so the value was unreadable once the old KEK was dropped.
     * Like an upload in parts completed after the rotation, it now commits under the current KEK.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"put", "tput", "streamed-in-chunks"})
    void aWriteSealedBeforeTheKekSwitchAndCommittedAfterTheRewrapIsUnderTheNewKek(String write)
            throws Exception {
        boolean streamed = write.startsWith("streamed");
        List<GatedCloudStore> gated = raw.stream().map(c -> GatedCloudStore.of(c, k -> true)).toList();
        gated.forEach(g -> g.setActive(false));
        SwitchableKeyProvider keys = new SwitchableKeyProvider(envelope("k1", "k1", k1, "k2", k2), "k1");
        Hybris writer = open(keys, store, gated, Duration.ofSeconds(10));
        writer.put(C, "other", random(10, 1)); // committed under k1 before the switch: the rotation re-wraps it
        byte[] v = random(streamed ? 3 * CHUNK + 7 : 100, 2);
        PausingStream stream = new PausingStream(v, 2 * CHUNK); // its first chunk sealed and uploaded
        if (!streamed) {
            gated.forEach(g -> g.setActive(true));
        }
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> switch (write) {
            case "tput" -> writer.tput(C, Map.of("k", v)).get("k");
            case "put" -> writer.put(C, "k", v);
            default -> writer.put(C, "k", stream, v.length);
        });
        if (streamed) {
            assertThat(stream.reached.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        } else {
            assertThat(gated.get(0).awaitBlocked(1, AWAIT)).isTrue();
        }

        // the rotation: k2 current, rewrap until it reports 0
        keys.switchTo("k2");
        assertThat(writer.rewrapDataKeys().rewrapped()).isEqualTo(1);
        assertThat(writer.rewrapDataKeys().rewrapped()).isZero();

        stream.go.countDown();
        gated.forEach(GatedCloudStore::open);
        VersionInfo written = within(put);

        // the old KEK dropped
        Hybris newOnly = open(envelope("k2", "k2", k2));
        assertThat(newOnly.describe(C, "k").orElseThrow().version()).isEqualTo(written.version());
        assertThat(newOnly.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        assertThat(newOnly.get(C, "other")).isPresent();
    }

    /**
     * A store that re-sent the rotation's update after losing the answer to the first send, which had landed,
     * answers with a conflict: the entry re-read is the rotation's own update, which is counted re-wrapped (it used
     * to be counted "already current", so the run reported 0 re-wrapped while it had re-wrapped it).
     */
    @Test
    void aRewrapWhoseUpdateLandedBeforeAResentConflictCountsItRewrapped() {
        AtomicBoolean once = new AtomicBoolean();
        MetadataStore resending = new ForwardingMetadataStore(store) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                super.conditionalUpdate(update);
                if (once.compareAndSet(false, true)) {
                    throw new VersionConflictException("re-sent after a lost answer: the first send had applied",
                            null, true);
                }
            }
        };
        open(envelope("k1", "k1", k1)).put(C, "k", random(10, 1));
        RewrapReport r = open(envelope("k2", "k1", k1, "k2", k2), resending).rewrapDataKeys();
        assertThat(once).isTrue();
        assertThat(r.examined()).isEqualTo(1);
        assertThat(r.rewrapped()).as(r.toString()).isEqualTo(1);
        assertThat(r.alreadyCurrent()).as(r.toString()).isZero();
        assertThat(open(envelope("k2", "k2", k2)).get(C, "k")).isPresent();
    }

    /**
     * Closing the client, or interrupting the thread, while the rotation's update is held: the rotation ends at
     * once ({@code ClientClosedException}, {@code CallInterruptedException}) instead of waiting for the store, and
     * whatever the held update does, the value stays readable with the old and the new KEK, and a re-run by another
     * client finishes the rotation.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"close", "interrupt"})
    void aRewrapCutShortWhileItsUpdateIsHeldEndsPromptlyAndAReRunFinishes(String how) throws Exception {
        byte[] v = random(10, 1);
        open(envelope("k1", "k1", k1)).put(C, "k", v);
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris rotator = open(envelope("k2", "k1", k1, "k2", k2), held);
        CompletableFuture<Object> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ended.complete(rotator.rewrapDataKeys());
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        t.start();
        held.awaitHeld(1);
        if (how.equals("close")) {
            rotator.close();
        } else {
            t.interrupt();
        }
        Object e = within(ended);
        if (e instanceof RewrapReport r) {
            // closing shut the metadata threads down, which let the held update through before the call noticed
            // the close: then the report must be true (the entry is under the new KEK already)
            assertThat(how).isEqualTo("close");
            assertThat(r.rewrapped()).isEqualTo(1);
            assertThat(open(envelope("k2", "k2", k2)).get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
        } else {
            assertThat(e).isInstanceOf(how.equals("close") ? io.hybris.ClientClosedException.class
                    : io.hybris.CallInterruptedException.class);
        }
        held.release(1);
        t.join(AWAIT.toMillis());
        Hybris again = open(envelope("k2", "k1", k1, "k2", k2));
        assertThat(again.get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
        again.rewrapDataKeys();
        assertThat(again.rewrapDataKeys().rewrapped()).isZero();
        assertThat(open(envelope("k2", "k2", k2)).get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
    }

    /**
     * The thread running the rotation is interrupted while the key provider unwraps a data key (a KMS call, which
     * maps the interrupt to {@code KeyUnavailableException} with the flag kept): the rotation used to count that
     * entry unreadable, then went on through the page (the in-memory store, called in place, never sees the
     * interrupt) and returned a report, as if the call had not been interrupted. It now ends with
     * {@code CallInterruptedException}, and claims no entry unreadable.
     */
    @Test
    void aRewrapInterruptedDuringAKmsCallEndsInterruptedInsteadOfCountingTheEntryUnreadable() throws Exception {
        Hybris old = open(envelope("k1", "k1", k1));
        for (String k : List.of("a", "b", "c")) {
            old.put(C, k, random(10, k.hashCode()));
        }
        EnvelopeKeyProvider both = envelope("k2", "k1", k1, "k2", k2);
        CountDownLatch calling = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        KeyProvider kms = new KeyProvider() {
            @Override
            public String currentKeyId() {
                return both.currentKeyId();
            }

            @Override
            public byte[] wrap(String keyId, byte[] dataKey) {
                return both.wrap(keyId, dataKey);
            }

            @Override
            public byte[] unwrap(String keyId, byte[] wrapped) {
                if (first.compareAndSet(true, false)) {
                    calling.countDown();
                    try {
                        // a KMS request that does not answer (nothing opens this latch): it ends at the interrupt
                        new CountDownLatch(1).await(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new io.hybris.KeyUnavailableException("KMS request interrupted");
                    }
                }
                return both.unwrap(keyId, wrapped);
            }
        };
        Hybris rotator = open(kms);
        CompletableFuture<Object> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ended.complete(rotator.rewrapDataKeys());
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        t.start();
        assertThat(calling.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        t.interrupt();
        assertThat(within(ended)).isInstanceOf(io.hybris.CallInterruptedException.class);
        t.join(AWAIT.toMillis());
        RewrapReport again = open(both).rewrapDataKeys();
        assertThat(again.unreadable()).isZero();
        assertThat(again.rewrapped() + again.alreadyCurrent()).isEqualTo(3);
    }

    // ------------------------------------------------------------------ held races that must keep every write

    /**
     * The rotation's update is held while a conditional PUT of the old-KEK client commits: the rotation conflicts,
     * re-reads the new version and re-wraps that one; the PUT is kept and readable with only the new KEK, and the
     * change feed lists the PUT, then the re-wrap of that same version (never the overwritten one again).
     */
    @Test
    void aRewrapOvertakenByAConditionalPutReWrapsTheNewVersion() throws Exception {
        Hybris old = open(envelope("k1", "k1", k1));
        VersionInfo base = old.put(C, "k", random(10, 1));
        io.hybris.ChangeCursor cursor = old.latestCursor(C);
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris rotator = open(envelope("k2", "k1", k1, "k2", k2), held);
        CompletableFuture<RewrapReport> run = CompletableFuture.supplyAsync(rotator::rewrapDataKeys);
        held.awaitHeld(1);
        byte[] v = random(20, 2);
        VersionInfo put = old.put(C, "k", v, PutOptions.ifMatch(base.version()));
        held.release(1);
        RewrapReport r = within(run);
        assertThat(r.examined()).isEqualTo(1);
        assertThat(r.rewrapped()).as(r.toString()).isEqualTo(1);
        Hybris newOnly = open(envelope("k2", "k2", k2));
        assertThat(newOnly.describe(C, "k").orElseThrow().version()).isEqualTo(put.version());
        assertThat(newOnly.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        assertThat(newOnly.changes(C, "", cursor, 100).changes()).extracting(c -> c.version().version())
                .containsExactly(put.version(), put.version());
    }

    /**
     * A conditional PUT (ifMatch the version it just read, so it skips its metadata read), a DELETE ifMatch and a
     * TPUT each have their update held while the rotation re-wraps the version they read: the same version, so each
     * re-reads, still holds its precondition, and commits; the rotation is not mistaken for a concurrent write.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"put-if-match", "delete-if-match", "tput", "chunked-put-if-match", "complete-parts"})
    void aHeldWriteMeetingARewrapOfTheVersionItReadCommits(String write) throws Exception {
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris writer = open(envelope("k2", "k1", k1, "k2", k2), held);
        Hybris old = open(envelope("k1", "k1", k1));
        VersionInfo base = old.put(C, "k", random(10, 1));
        old.put(C, "j", random(10, 3));
        assertThat(writer.get(C, "k")).isPresent(); // a read-modify-write: the PUT ifMatch uses this read
        byte[] v = random(write.startsWith("chunked") || write.startsWith("complete") ? 2 * CHUNK + 5 : 30, 2);
        io.hybris.PartUploads parts = io.hybris.PartUploads.of(writer);
        io.hybris.PartUpload upload = parts.start(C, "k");
        io.hybris.UploadedPart part = parts.upload(upload, 1, new ByteArrayInputStream(v), v.length);
        CompletableFuture<Object> w = CompletableFuture.supplyAsync(() -> switch (write) {
            case "delete-if-match" -> writer.delete(C, "k", DeleteOptions.ifMatch(base.version()));
            case "tput" -> writer.tput(C, Map.of("k", v, "j", v));
            case "complete-parts" -> parts.complete(upload, List.of(part), PutOptions.ifMatch(base.version()));
            default -> writer.put(C, "k", v, PutOptions.ifMatch(base.version()));
        });
        held.awaitHeld(1);
        RewrapReport r = open(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys();
        assertThat(r.rewrapped()).isEqualTo(2);
        held.release(1);
        within(w);
        Hybris newOnly = open(envelope("k2", "k2", k2));
        if (write.equals("delete-if-match")) {
            assertThat(newOnly.get(C, "k")).as("deleted, not resurrected").isEmpty();
        } else {
            assertThat(newOnly.get(C, "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        }
        if (write.equals("tput")) {
            assertThat(newOnly.get(C, "j")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
        }
        assertThat(newOnly.rewrapDataKeys().rewrapped()).as("nothing left under k1").isZero();
    }

    /** The rotation's update held while a DELETE commits: the key stays deleted, counted as not encrypted. */
    @Test
    void aRewrapOvertakenByADeleteDoesNotResurrectTheValue() throws Exception {
        Hybris old = open(envelope("k1", "k1", k1));
        old.put(C, "k", random(10, 1));
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris rotator = open(envelope("k2", "k1", k1, "k2", k2), held);
        CompletableFuture<RewrapReport> run = CompletableFuture.supplyAsync(rotator::rewrapDataKeys);
        held.awaitHeld(1);
        assertThat(old.delete(C, "k")).isPresent();
        held.release(1);
        RewrapReport r = within(run);
        assertThat(r.rewrapped()).as(r.toString()).isZero();
        assertThat(r.notEncrypted()).as(r.toString()).isEqualTo(1);
        assertThat(rotator.get(C, "k")).isEmpty();
        assertThat(rotator.describe(C, "k")).isEmpty();
    }

    /**
     * Two rotators with different current KEKs (each also holding the other's): the second one's update is held
     * while the first re-wraps the entry; it then re-reads and re-wraps that one under its own KEK. Both count the
     * entry re-wrapped, and the value reads with the last KEK alone.
     */
    @Test
    void twoRotatorsWithDifferentKeksEachReWrapOnceAndTheValueStaysReadable() throws Exception {
        byte[] v = random(10, 1);
        open(envelope("k1", "k1", k1)).put(C, "k", v);
        HeldUpdates.Numbered held = HeldUpdates.numbered(store, AWAIT, 1);
        Hybris toK3 = open(envelope("k3", "k1", k1, "k2", k2, "k3", k3), held);
        CompletableFuture<RewrapReport> second = CompletableFuture.supplyAsync(toK3::rewrapDataKeys);
        held.awaitHeld(1);
        RewrapReport first = open(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys();
        assertThat(first.rewrapped()).isEqualTo(1);
        held.release(1);
        RewrapReport r = within(second);
        assertThat(r.rewrapped()).as(r.toString()).isEqualTo(1);
        assertThat(open(envelope("k3", "k3", k3)).get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(v));
    }
}
