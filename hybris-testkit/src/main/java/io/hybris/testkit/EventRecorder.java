/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.HybrisListener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link HybrisListener} that records what a client did, so tests can assert which clouds were contacted and
 * with what outcome (and bytes), whether a GET went through the worst case or restarted, how client calls and
 * metadata-store calls ended, CAS conflicts, cache lookups and garbage-collection deletions. Thread-safe.
 */
public final class EventRecorder implements HybrisListener {
    /** One recorded cloud operation. */
    public record CloudEvent(String cloudId, CloudOperation operation, String objectKey, Outcome outcome) {
    }

    /** One recorded client call. */
    public record OperationEvent(Operation operation, String container, OperationOutcome outcome) {
    }

    private final List<CloudEvent> events = new CopyOnWriteArrayList<>();
    private final List<CloudRequest> requests = new CopyOnWriteArrayList<>();
    private final List<OperationEvent> operations = new CopyOnWriteArrayList<>();
    private final Map<Object, LongAdder> tallies = new ConcurrentHashMap<>();
    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicInteger worstCase = new AtomicInteger();
    private final AtomicInteger collected = new AtomicInteger();

    @Override
    public void cloudOperation(String cloudId, CloudOperation operation, String objectKey, Outcome outcome,
                               Duration latency) {
        events.add(new CloudEvent(cloudId, operation, objectKey, outcome));
    }

    @Override
    public void cloudRequest(CloudRequest request) {
        requests.add(request);
        HybrisListener.super.cloudRequest(request);
    }

    @Override
    public void operation(Operation operation, String container, OperationOutcome outcome, Duration duration) {
        operations.add(new OperationEvent(operation, container, outcome));
    }

    @Override
    public void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
        tally(List.of(operation, outcome));
    }

    @Override
    public void casConflict(String container, int keys, ConflictResolution resolution) {
        tally(resolution);
    }

    @Override
    public void cacheLookup(CacheResult result) {
        tally(result);
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey, GcCause cause) {
        tally(cause);
        HybrisListener.super.garbageCollected(cloudId, objectKey, cause);
    }

    private void tally(Object what) {
        tallies.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    private long tallied(Object what) {
        LongAdder n = tallies.get(what);
        return n == null ? 0 : n.sum();
    }

    /** All cloud requests so far, with their bytes and failures. */
    public List<CloudRequest> requests() {
        return List.copyOf(requests);
    }

    /** The payload bytes of one cloud's requests of one operation (see {@link CloudRequest#bytes()}). */
    public long bytes(String cloudId, CloudOperation operation) {
        return requests.stream().filter(r -> r.cloudId().equals(cloudId) && r.operation() == operation)
                .mapToLong(CloudRequest::bytes).sum();
    }

    /** Failed cloud requests of one cloud with this failure kind. */
    public long failures(String cloudId, FailureKind kind) {
        return requests.stream().filter(r -> r.cloudId().equals(cloudId) && r.failureKind() == kind).count();
    }

    /** All client calls so far. */
    public List<OperationEvent> operations() {
        return List.copyOf(operations);
    }

    /** Client calls of one operation that ended so. */
    public long count(Operation operation, OperationOutcome outcome) {
        return operations.stream().filter(o -> o.operation() == operation && o.outcome() == outcome).count();
    }

    /** Metadata-store calls of one kind that ended so. */
    public long metadataCalls(MetadataOperation operation, MetadataOutcome outcome) {
        return tallied(List.of(operation, outcome));
    }

    /** CAS conflicts resolved so. */
    public long casConflicts(ConflictResolution resolution) {
        return tallied(resolution);
    }

    /** Value-cache lookups with this result. */
    public long cacheLookups(CacheResult result) {
        return tallied(result);
    }

    /** Objects garbage collection or the sweep deleted for this cause. */
    public long garbageCollected(GcCause cause) {
        return tallied(cause);
    }

    @Override
    public void getRestarted(String container, String key) {
        restarts.incrementAndGet();
    }

    @Override
    public void worstCaseGet(String container, String key) {
        worstCase.incrementAndGet();
    }

    @Override
    public void garbageCollected(String cloudId, String objectKey) {
        collected.incrementAndGet();
    }

    /** All cloud events so far. */
    public List<CloudEvent> events() {
        return List.copyOf(events);
    }

    /** Cloud events of one operation and outcome on one cloud. */
    public long count(String cloudId, CloudOperation operation, Outcome outcome) {
        return events.stream().filter(e -> e.cloudId().equals(cloudId) && e.operation() == operation
                && e.outcome() == outcome).count();
    }

    /** How many worst-case GETs restarted on a metadata change. */
    public int restarts() {
        return restarts.get();
    }

    /** How many GETs fell back to the worst case. */
    public int worstCaseGets() {
        return worstCase.get();
    }

    /** How many objects garbage collection deleted. */
    public int garbageCollected() {
        return collected.get();
    }

    /** Forgets everything recorded. */
    public void reset() {
        events.clear();
        requests.clear();
        operations.clear();
        tallies.clear();
        restarts.set(0);
        worstCase.set(0);
        collected.set(0);
    }
}
