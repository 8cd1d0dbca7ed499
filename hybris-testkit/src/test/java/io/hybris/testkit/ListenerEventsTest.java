/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener.CacheResult;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.ConflictResolution;
import io.hybris.HybrisListener.FailureKind;
import io.hybris.HybrisListener.GcCause;
import io.hybris.HybrisListener.MetadataOperation;
import io.hybris.HybrisListener.MetadataOutcome;
import io.hybris.HybrisListener.Operation;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.HybrisListener.Outcome;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.ValueCache;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The listener events where the core emits them: client calls with their outcome, metadata-store calls, CAS
 * conflicts and how the commit rule resolved them, bytes and failure kinds of cloud requests, garbage-collection
 * causes, cache lookups.
 */
class ListenerEventsTest {
    private static final String C = "photos";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(String id, MetadataStore store, List<? extends CloudStore> stores, EventRecorder events,
                          CacheSettings cache) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(id).metadataStore(store)
                .deadline(Duration.ofSeconds(10)).probeInterval(Duration.ZERO).listener(events).cache(cache);
        stores.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private Hybris client(EventRecorder events) {
        return client("a", metadata, clouds, events, CacheSettings.none());
    }

    @Test
    void clientCallsAndMetadataCallsAreReportedWithTheirOutcome() {
        EventRecorder events = new EventRecorder();
        Hybris h = client(events);
        h.put(C, "k", new byte[10]);
        assertThat(h.get(C, "k")).isPresent();
        assertThat(h.get(C, "absent")).isEmpty();
        assertThatThrownBy(() -> h.put(C, "k", new byte[5], PutOptions.ifAbsent()))
                .isInstanceOf(PreconditionFailedException.class);
        h.tput(C, Map.of("t1", new byte[3], "t2", new byte[4]));
        assertThat(h.list(C)).containsExactlyInAnyOrder("k", "t1", "t2");
        assertThat(h.describe(C, "k")).isPresent();
        assertThat(h.delete(C, "k")).isPresent();
        assertThat(h.delete(C, "k")).isEmpty();

        assertThat(events.count(Operation.PUT, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.PUT, OperationOutcome.PRECONDITION_FAILED)).isEqualTo(1);
        assertThat(events.count(Operation.GET, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.GET, OperationOutcome.NOT_FOUND)).isEqualTo(1);
        assertThat(events.count(Operation.TPUT, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.LIST, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.DESCRIBE, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.DELETE, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.DELETE, OperationOutcome.NOT_FOUND)).isEqualTo(1);
        assertThat(events.operations()).hasSize(9).allSatisfy(o -> assertThat(o.container()).isEqualTo(C));

        // reads: put, 2 gets, the failed put, 2 tput keys, describe, 2 deletes; updates: put, delete; one txn
        assertThat(events.metadataCalls(MetadataOperation.READ, MetadataOutcome.OK)).isEqualTo(9);
        assertThat(events.metadataCalls(MetadataOperation.UPDATE, MetadataOutcome.OK)).isEqualTo(2);
        assertThat(events.metadataCalls(MetadataOperation.TXN, MetadataOutcome.OK)).isEqualTo(1);
        assertThat(events.metadataCalls(MetadataOperation.LIST, MetadataOutcome.OK)).isEqualTo(1);
    }

    /** A metadata store that lets another client commit the same key just before this client's first update. */
    private static final class Interleaving extends ForwardingMetadataStore {
        private final AtomicBoolean done = new AtomicBoolean();
        private final Runnable before;

        Interleaving(MetadataStore delegate, Runnable before) {
            super(delegate);
            this.before = before;
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            if (done.compareAndSet(false, true)) {
                before.run();
            }
            super.conditionalUpdate(update);
        }
    }

    @Test
    void aLostConditionalUpdateIsRetriedOverAnOlderWrite() {
        // "z" orders after "b" at the same sequence number: its update is retried over b's version and commits
        EventRecorder events = new EventRecorder();
        Hybris other = client("b", metadata, clouds, new EventRecorder(), CacheSettings.none());
        Hybris h = client("z", new Interleaving(metadata, () -> other.put(C, "k", new byte[1])), clouds, events,
                CacheSettings.none());
        h.put(C, "k", new byte[2]);
        assertThat(events.casConflicts(ConflictResolution.RETRY)).isEqualTo(1);
        assertThat(events.metadataCalls(MetadataOperation.UPDATE, MetadataOutcome.CONFLICT)).isEqualTo(1);
        assertThat(events.metadataCalls(MetadataOperation.UPDATE, MetadataOutcome.OK)).isEqualTo(1);
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).hasSize(2));
    }

    @Test
    void aLostConditionalUpdateToANewerWriteIsOverwritten() {
        EventRecorder events = new EventRecorder();
        Hybris other = client("z", metadata, clouds, new EventRecorder(), CacheSettings.none());
        Hybris h = client("b", new Interleaving(metadata, () -> other.put(C, "k", new byte[1])), clouds, events,
                CacheSettings.none());
        h.put(C, "k", new byte[2]);
        assertThat(events.casConflicts(ConflictResolution.OVERWRITTEN)).isEqualTo(1);
        assertThat(events.casConflicts(ConflictResolution.RETRY)).isZero();
        // the overwritten write's copies are garbage: deleted as never referenced
        await().atMost(5, TimeUnit.SECONDS).until(() -> events.garbageCollected(GcCause.UNREFERENCED) == 2);
    }

    @Test
    void cloudRequestsCarryTheirBytesAndFailureKind() {
        EventRecorder events = new EventRecorder();
        CorruptingCloudStore corrupt = CorruptingCloudStore.of(clouds.get(0));
        UnavailableCloudStore down = UnavailableCloudStore.of(clouds.get(2));
        Hybris h = client("a", metadata, List.of(corrupt, clouds.get(1), down), events, CacheSettings.none());
        h.put(C, "k", new byte[700]); // c2 is down: stored on c0 and c1
        assertThat(events.bytes("c0", CloudOperation.PUT)).isEqualTo(700);
        assertThat(events.bytes("c1", CloudOperation.PUT)).isEqualTo(700);
        assertThat(events.bytes("c2", CloudOperation.PUT)).isZero();
        assertThat(events.failures("c2", FailureKind.UNAVAILABLE))
                .isEqualTo(events.count("c2", CloudOperation.PUT, Outcome.ERROR));
        down.setActive(false);
        for (int i = 0; i < 3; i++) {
            assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).hasSize(700));
        }
        long corruptGets = events.count("c0", CloudOperation.GET, Outcome.CORRUPT);
        assertThat(events.failures("c0", FailureKind.CORRUPT)).isEqualTo(corruptGets);
        assertThat(events.bytes("c0", CloudOperation.GET)).isEqualTo(700 * corruptGets);
        assertThat(events.bytes("c1", CloudOperation.GET))
                .isEqualTo(700 * events.count("c1", CloudOperation.GET, Outcome.OK));

        h.put(C, "k", new byte[800]);
        await().atMost(5, TimeUnit.SECONDS).until(() -> events.garbageCollected(GcCause.SUPERSEDED) == 2);
        assertThat(events.count("c0", CloudOperation.DELETE, Outcome.OK)
                + events.count("c1", CloudOperation.DELETE, Outcome.OK)
                + events.count("c2", CloudOperation.DELETE, Outcome.OK)).isEqualTo(2);
        assertThat(events.garbageCollected()).isEqualTo(2); // the old two-argument event still arrives
        h.sweepOrphans();
        assertThat(events.count("c0", CloudOperation.LIST, Outcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.SWEEP, OperationOutcome.OK)).isEqualTo(1);
    }

    @Test
    void anUploadInPartsReportsEachPartAndItsCompletionAsAPut() {
        EventRecorder events = new EventRecorder();
        Hybris h = client(events);
        io.hybris.PartUploads parts = io.hybris.PartUploads.of(h);
        io.hybris.PartUpload upload = parts.start(C, "big");
        io.hybris.UploadedPart p1 = parts.upload(upload, 1, new java.io.ByteArrayInputStream(new byte[10]), 10);
        assertThatThrownBy(() -> parts.upload(upload, 2, new java.io.ByteArrayInputStream(new byte[3]), 4))
                .isInstanceOf(io.hybris.ValueLengthMismatchException.class);
        parts.complete(upload, List.of(p1), io.hybris.PutOptions.none());

        assertThat(events.count(Operation.UPLOAD_PART, OperationOutcome.OK)).isEqualTo(1);
        assertThat(events.count(Operation.UPLOAD_PART, OperationOutcome.INVALID)).isEqualTo(1);
        assertThat(events.count(Operation.PUT, OperationOutcome.OK)).isEqualTo(1);
    }

    @Test
    void cacheLookupsAreReported() {
        EventRecorder events = new EventRecorder();
        MapCache cache = new MapCache();
        Hybris h = client("a", metadata, clouds, events, CacheSettings.builder().cache(cache).writeThrough(false)
                .fillOnRead(true).build());
        h.put(C, "k", new byte[100]);
        assertThat(h.get(C, "k")).isPresent(); // a miss, then filled on read
        assertThat(events.cacheLookups(CacheResult.MISS)).isEqualTo(1);
        await().atMost(5, TimeUnit.SECONDS).until(() -> !cache.entries.isEmpty());
        assertThat(h.get(C, "k")).isPresent();
        assertThat(events.cacheLookups(CacheResult.HIT)).isEqualTo(1);
        cache.entries.replaceAll((k, v) -> new ValueCache.Versioned(new byte[100], v.casToken() + 1)); // wrong bytes
        byte[] first = new byte[100];
        first[0] = 1;
        cache.entries.replaceAll((k, v) -> new ValueCache.Versioned(first, v.casToken() + 1));
        assertThat(h.get(C, "k")).isPresent();
        assertThat(events.cacheLookups(CacheResult.REJECTED)).isEqualTo(1);
        assertThat(h.cacheStats().hits()).isEqualTo(events.cacheLookups(CacheResult.HIT));
        assertThat(h.cacheStats().misses()).isEqualTo(events.cacheLookups(CacheResult.MISS)
                + events.cacheLookups(CacheResult.REJECTED));
    }

}
