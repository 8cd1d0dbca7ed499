/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CallInterruptedException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.ReadSettings;
import io.hybris.UploadedPart;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A completion of an upload in parts stores its manifest under the version's own name, which a repeat of the
 * completion (after an interrupt, or concurrently) stores again. The copies a failed completion's own race deletes
 * by that name must not take the copies of the completion that committed: before, an interrupted completion's
 * clean-up of its manifest copy (a slow DELETE, or the interrupt coming after the other completion committed) took
 * the copy the committed completion had stored under the same name, and the acknowledged value was left with one
 * manifest copy of the two its metadata lists: with the other cloud down (f=1) it was lost.
 */
class RepeatedCompleteCleanupTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int CHUNK = 64 << 10;
    private static final String C = "media";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final AtomicReference<String> manifest = new AtomicReference<>("-");
    private final AtomicBoolean holdPuts = new AtomicBoolean(true);
    private final CountDownLatch releaseDeletes = new CountDownLatch(1);
    private final List<Hybris> opened = new ArrayList<>();
    private final List<GatedCloudStore> gates = new ArrayList<>();

    @AfterEach
    void close() {
        releaseDeletes.countDown();
        gates.forEach(GatedCloudStore::open);
        opened.forEach(Hybris::close);
    }

    /**
     * A cloud whose deletes of the manifest wait for {@link #releaseDeletes} (a slow DELETE), and which reports its
     * delegate's call bound, so its calls run on the caller's thread as an in-memory cloud's do.
     */
    private final class SlowManifestDeletes extends ForwardingCloudStore {
        SlowManifestDeletes(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return delegate().callTimeBound();
        }

        @Override
        public void delete(String objectKey) {
            if (objectKey.equals(manifest.get())) {
                boolean interrupted = false;
                while (true) {
                    try {
                        releaseDeletes.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            super.delete(objectKey);
        }
    }

    private HybrisConfig.Builder builder(List<CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId("w1").metadataStore(metadata)
                .deadline(Duration.ofSeconds(20)).timerInitial(Duration.ofSeconds(10))
                .reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofSeconds(10))
                .probeInterval(Duration.ZERO).probeOnOpen(false).chunkSize(CHUNK).chunkThreshold(CHUNK);
        clouds.forEach(b::cloud);
        return b;
    }

    private Hybris open(HybrisConfig.Builder b) {
        Hybris h = Hybris.open(b.build());
        opened.add(h);
        return h;
    }

    /** Completes {@code upload} with {@code named} on a thread of its own; what it throws goes to {@code thrown}. */
    private static Thread completing(PartUploads parts, PartUpload upload, List<UploadedPart> named,
                                     AtomicReference<Throwable> thrown) {
        Thread t = new Thread(() -> {
            try {
                parts.complete(upload, named, PutOptions.none());
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        return t;
    }

    private static byte[] value(int size, long seed) {
        byte[] v = new byte[size];
        new java.util.Random(seed).nextBytes(v);
        return v;
    }

    @Test
    void anInterruptedCompletesCleanupDoesNotTakeTheCommittedRepeatsManifest() throws Exception {
        GatedCloudStore c1 = GatedCloudStore.of(raw.get(1), n -> holdPuts.get() && n.equals(manifest.get()));
        GatedCloudStore c2 = GatedCloudStore.of(raw.get(2), n -> holdPuts.get() && n.equals(manifest.get()));
        gates.add(c1);
        gates.add(c2);
        List<CloudStore> clouds = List.of(new SlowManifestDeletes(raw.get(0)), c1, c2);
        // each completion on a client of its own that has written nothing yet: its race asks c0, then c1
        PartUploads uploader = PartUploads.of(open(builder(clouds).clientId("up")));
        Hybris h = open(builder(clouds));
        PartUploads parts = PartUploads.of(h);
        PartUploads other = PartUploads.of(open(builder(clouds).clientId("w2")));
        PartUpload upload = uploader.start(C, "k");
        UploadedPart p1 = uploader.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        UploadedPart p2 = uploader.upload(upload, 2, new ByteArrayInputStream(value(7, 2)), 7);
        manifest.set(io.hybris.spi.VersionName.keyPrefix("hybris/", C, "k") + upload.version());

        // the first completion stores its manifest on c0 (on its own thread) and waits for c1: interrupted there
        AtomicReference<Throwable> first = new AtomicReference<>();
        Thread t = completing(parts, upload, List.of(p1, p2), first);
        assertThat(c1.awaitBlocked(1, WAIT)).isTrue();
        // c0 bounds its calls: its put ran on the completing thread before the race waited for c1
        assertThat(raw.get(0).get(manifest.get(), Long.MAX_VALUE)).as("the manifest's name").isPresent();
        t.interrupt();

        // its repeat stores the same manifest on c0 and c1 and commits: acknowledged
        holdPuts.set(false);
        assertThat(other.complete(upload, List.of(p1, p2), PutOptions.none()).version())
                .isEqualTo(upload.version());

        // the first completion's clean-up of c0 (a slow DELETE) lands only now
        releaseDeletes.countDown();
        t.join(WAIT.toMillis());
        assertThat(t.isAlive()).isFalse();
        assertThat(first.get()).isInstanceOf(CallInterruptedException.class);
        gates.forEach(GatedCloudStore::open);
        h.close(); // waits for its background deletions

        byte[] expected = new byte[CHUNK + 8];
        System.arraycopy(value(CHUNK + 1, 1), 0, expected, 0, CHUNK + 1);
        System.arraycopy(value(7, 2), 0, expected, CHUNK + 1, 7);
        // f=1: the value must survive any one cloud down; here c1, one of the two its manifest is listed on
        Hybris reader = open(builder(List.of(raw.get(0), UnavailableCloudStore.of(raw.get(1)), raw.get(2)))
                .clientId("r1").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
    }

    @Test
    void aRepeatInterruptedAfterTheFirstCompletionCommittedKeepsItsManifest() throws Exception {
        releaseDeletes.countDown(); // deletes are not slow here
        GatedCloudStore c1 = GatedCloudStore.of(raw.get(1), n -> holdPuts.get() && n.equals(manifest.get()));
        gates.add(c1);
        List<CloudStore> clouds = List.of(new SlowManifestDeletes(raw.get(0)), c1, raw.get(2));
        // each completion on a client of its own that has written nothing yet: its race asks c0, then c1
        PartUploads uploader = PartUploads.of(open(builder(clouds).clientId("up")));
        Hybris h = open(builder(clouds));
        PartUploads parts = PartUploads.of(h);
        PartUploads other = PartUploads.of(open(builder(clouds).clientId("w2")));
        PartUpload upload = uploader.start(C, "k");
        UploadedPart p1 = uploader.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        manifest.set(io.hybris.spi.VersionName.keyPrefix("hybris/", C, "k") + upload.version());

        // a repeat (say, after a lost answer) runs first: its manifest is on c0, its copy on c1 on the wire
        AtomicReference<Throwable> repeat = new AtomicReference<>();
        Thread t = completing(parts, upload, List.of(p1), repeat);
        assertThat(c1.awaitBlocked(1, WAIT)).isTrue();
        // c0 bounds its calls: its put ran on the completing thread before the race waited for c1
        assertThat(raw.get(0).get(manifest.get(), Long.MAX_VALUE)).as("the manifest's name").isPresent();

        // the other completion stores the same manifest on c0 and c1 and commits: acknowledged
        holdPuts.set(false);
        assertThat(other.complete(upload, List.of(p1), PutOptions.none()).version()).isEqualTo(upload.version());

        // the repeat is interrupted while its copy on c1 is still on the wire
        t.interrupt();
        t.join(WAIT.toMillis());
        assertThat(t.isAlive()).isFalse();
        assertThat(repeat.get()).isInstanceOf(CallInterruptedException.class);
        gates.forEach(GatedCloudStore::open);
        h.close(); // waits for its background deletions

        Hybris reader = open(builder(List.of(raw.get(0), UnavailableCloudStore.of(raw.get(1)), raw.get(2)))
                .clientId("r1").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(CHUNK + 1, 1)));
    }

    /**
     * A completion whose update the metadata store refuses before sending it (an {@code InvalidRequestException},
     * e.g. user metadata above the store's limit) deleted everything it wrote under the version's name: when another
     * completion of the same upload had committed that very version meanwhile, its manifest and chunks went too.
     */
    @Test
    void aCompletionTheStoreRefusesLeavesTheVersionAnotherCompletionCommitted() throws Exception {
        releaseDeletes.countDown(); // deletes are not slow here
        List<CloudStore> gated = new ArrayList<>();
        for (InMemoryCloudStore c : raw) {
            GatedCloudStore g = GatedCloudStore.of(c, n -> holdPuts.get() && n.equals(manifest.get()));
            gates.add(g);
            gated.add(g);
        }
        ForwardingMetadataStore refusing = new ForwardingMetadataStore(metadata) {
            @Override
            public void conditionalUpdate(io.hybris.spi.MetadataUpdate update) {
                throw new io.hybris.InvalidRequestException("injected: the store refuses this update");
            }
        };
        PartUploads uploader = PartUploads.of(open(builder(raw.stream().<CloudStore>map(c -> c).toList())
                .clientId("up")));
        PartUploads refused = PartUploads.of(open(builder(gated).clientId("w1").metadataStore(refusing)));
        PartUploads other = PartUploads.of(open(builder(raw.stream().<CloudStore>map(c -> c).toList())
                .clientId("w2")));
        PartUpload upload = uploader.start(C, "k");
        UploadedPart p1 = uploader.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1);
        manifest.set(io.hybris.spi.VersionName.keyPrefix("hybris/", C, "k") + upload.version());

        // the refused completion read the key (no value yet) and stores its manifest: held on the wire
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t = completing(refused, upload, List.of(p1), failed);
        assertThat(gates.get(0).awaitBlocked(1, WAIT)).isTrue();
        // meanwhile the other completion commits the same version: acknowledged
        assertThat(other.complete(upload, List.of(p1), PutOptions.none()).version()).isEqualTo(upload.version());

        holdPuts.set(false);
        gates.forEach(GatedCloudStore::open);
        t.join(WAIT.toMillis());
        assertThat(t.isAlive()).isFalse();
        assertThat(failed.get()).isInstanceOf(io.hybris.InvalidRequestException.class);
        opened.get(1).close(); // waits for its background deletions

        Hybris reader = open(builder(raw.stream().<CloudStore>map(c -> c).toList()).clientId("r1")
                .deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(value(CHUNK + 1, 1)));
    }
}
