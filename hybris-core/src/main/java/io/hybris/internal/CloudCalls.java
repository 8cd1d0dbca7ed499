/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.ReadSettings;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.spi.CloudStore;
import io.hybris.spi.support.AbortSignal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The cloud-call kernel: every race over ranked clouds runs here, whatever the {@link Layout}. It launches each
 * request (on the caller's thread when {@link CloudCallPlacement} allows, else on an I/O thread), measures it into
 * the {@link LatencyRanking}, reports it to the listener, verifies what a read returns against the expected size
 * and SHA-256, adds a secondary cloud when a request's timer expires or it fails (paper §3.2-§3.3), abandons
 * what is no longer needed, and ends at the call's deadline. Three races cover every layout:
 * <ul>
 *   <li>{@link #write}: each of some parts on a number of distinct clouds (replication: one part on {@code f+1};
 *       erasure coding: {@code k+f} parts on one cloud each);</li>
 *   <li>{@link #read}: the common-case read of {@code needed} verified answers from distinct clouds, the fastest
 *       first, one more whenever a timer expires or an answer fails; with hedging ({@code hybris.get.hedge}) the
 *       timer is the asked cloud's observed p95, and a request the race leaves behind is a censored sample,
 *       penalized only when a cloud is left behind three times in a row;</li>
 *   <li>{@link #readRound}: one round of the worst-case read (paper §3.5): every cloud at once, failures
 *       re-requested with backoff, until enough answers, a metadata change or the round's end.</li>
 * </ul>
 * Answers failing the hash check are reported to the {@link Quarantine}. Thread-safe: every race keeps its state on
 * the caller's stack.
 */
final class CloudCalls {
    /** How long one worst-case round waits before re-reading metadata (in case a notification was lost). */
    static final long WORST_CASE_ROUND_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long RETRY_BACKOFF_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long RETRY_BACKOFF_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Map<String, CloudStore> clouds;
    private final List<String> cloudOrder;
    private final LatencyRanking ranking;
    private final CloudPreference preference;
    private final CloudCallPlacement placement;
    private final HybrisListener listener;
    private final ExecutorService io;
    private final Set<AbortSignal> live = ConcurrentHashMap.newKeySet(); // requests running on I/O threads
    private final GarbageCollector gc;
    private final Quarantine quarantine;
    private final VerifiedGet verifiedGet;
    private final boolean hedge;
    private final long hedgeMinNanos;

    CloudCalls(Map<String, CloudStore> clouds, List<String> cloudOrder, LatencyRanking ranking,
               CloudPreference preference, HybrisListener listener, ExecutorService io, GarbageCollector gc,
               Quarantine quarantine, ReadSettings reads) {
        this.clouds = clouds;
        this.cloudOrder = cloudOrder;
        this.ranking = ranking;
        this.preference = preference;
        this.placement = new CloudCallPlacement(clouds);
        this.listener = listener;
        this.io = io;
        this.gc = gc;
        this.quarantine = quarantine;
        this.verifiedGet = new VerifiedGet(ranking, quarantine, listener);
        this.hedge = reads.hedge();
        this.hedgeMinNanos = reads.hedgeMinDelay().toNanos();
    }

    /** The configured clouds, in configuration order. */
    List<String> cloudOrder() {
        return cloudOrder;
    }

    /**
     * Aborts every cloud request running on an I/O thread (their callers see them fail as interrupted): the client
     * is closing and about to interrupt its I/O threads, which blocking socket reads would ignore.
     */
    void abortRunning() {
        for (AbortSignal signal : live) {
            signal.abort();
        }
    }

    /** Whether this client has a cloud with this id configured. */
    boolean configured(String cloudId) {
        return clouds.containsKey(cloudId);
    }

    /** A new race whose requests run on this kernel's I/O threads (the worst-case read signals into it). */
    Race<byte[]> newReadRace() {
        return new Race<>(io, live);
    }

    // ------------------------------------------------------------------ write race

    /**
     * What a failed write race reports: the layout words its own shortfall.
     */
    interface WriteFailures {
        /** Too few clouds are left to store every part; {@code holders.get(i)} are the clouds storing part i. */
        HybrisException notEnoughClouds(List<List<String>> holders, int failed);

        /** The deadline passed before every part was stored. */
        String deadlineMissed(List<List<String>> holders, List<String> stillRunning);
    }

    /**
     * Stores part {@code i} of {@code parts} under {@code objectKey} on {@code copies} distinct clouds, the clouds
     * ranked fastest for writes of {@code partSize} first; every cloud stores at most one part. When the timer
     * expires, every part still short of copies also goes to the next clouds (secondaries); when a cloud fails,
     * its part goes to the next cloud. Uploads that finish after the race decided, or that it does not reference,
     * are deleted by whoever finishes them; on failure everything stored is deleted and the failure thrown.
     *
     * @return for each part, the clouds that stored it, in acknowledgement order ({@code copies} each)
     */
    List<List<String>> write(String objectKey, byte[][] parts, int copies, long partSize, Deadline d,
                             WriteFailures failures) {
        return write(objectKey, parts, copies, partSize, d, failures, false);
    }

    /**
     * {@link #write(String, byte[][], int, long, Deadline, WriteFailures)}, where {@code sharedName} says whether
     * another attempt of the same write may store the same bytes under {@code objectKey} (one part only: the
     * manifest of an upload in parts, completed again; {@link Uploads#Uploads(boolean)}). The copies such a write
     * does not reference are then deleted only where the key's metadata does not expect them
     * ({@link GarbageCollector#deleteShared}), not by name at once: a failed completion's clean-up took the copy of
     * a repeat that had committed meanwhile (same name, same bytes).
     */
    List<List<String>> write(String objectKey, byte[][] parts, int copies, long partSize, Deadline d,
                             WriteFailures failures, boolean sharedName) {
        if (sharedName && parts.length != 1) {
            throw new IllegalArgumentException("a shared name holds one part, not " + parts.length);
        }
        Uploads uploads = new Uploads(sharedName);
        try {
            List<List<String>> holders = writeOrThrow(objectKey, parts, copies, partSize, d, failures, uploads);
            Set<String> referenced = new LinkedHashSet<>();
            holders.forEach(referenced::addAll);
            unreferenced(objectKey, uploads.decide(referenced), sharedName ? parts[0] : null);
            return holders;
        } catch (RuntimeException e) {
            unreferenced(objectKey, uploads.decide(Set.of()), sharedName ? parts[0] : null);
            throw e;
        }
    }

    /** Deletes a write's unreferenced copies: by name, or, under a shared name ({@code data} not null), checked. */
    private void unreferenced(String objectKey, List<String> cloudIds, byte[] data) {
        if (data == null) {
            gc.deleteVersion(objectKey, cloudIds);
        } else {
            gc.deleteShared(objectKey, cloudIds, data);
        }
    }

    private List<List<String>> writeOrThrow(String objectKey, byte[][] parts, int copies, long partSize, Deadline d,
                                            WriteFailures words, Uploads uploads) {
        int n = parts.length;
        List<String> ranked = preference.order(cloudOrder, Op.WRITE, partSize);
        Race<Void> race = new Race<>(io, live);
        Map<String, Integer> partOf = new HashMap<>();
        List<List<String>> holders = new ArrayList<>(n);
        int[] inFlight = new int[n];
        List<Throwable> errors = new ArrayList<>();
        int next = 0;
        int complete = 0;
        long timerAt = System.nanoTime();
        for (int p = 0; p < n; p++) {
            holders.add(new ArrayList<>(copies));
            for (int c = 0; c < copies && next < ranked.size(); c++, next++) {
                launchPut(race, ranked.get(next), objectKey, parts[p], uploads, d);
                partOf.put(ranked.get(next), p);
                inFlight[p]++;
                timerAt = Math.max(timerAt, System.nanoTime() + ranking.timerNanos(ranked.get(next), Op.WRITE,
                        partSize));
            }
        }
        try {
            while (complete < n) {
                for (int p = 0; p < n; p++) {
                    if (holders.get(p).size() + inFlight[p] < copies) {
                        throw suppressing(words.notEnoughClouds(holders, errors.size()), errors);
                    }
                }
                Object event = race.poll(d.cap(timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        throw suppressing(new DeadlineExceededException(
                                words.deadlineMissed(holders, race.runningClouds())), errors);
                    }
                    for (String slow : race.runningClouds()) {
                        ranking.recordFailure(slow, Op.WRITE, partSize);
                    }
                    // secondaries: every part short of copies also goes to as many more clouds as it lacks
                    String last = null;
                    for (int p = 0; p < n; p++) {
                        for (int c = holders.get(p).size(); c < copies && next < ranked.size(); c++) {
                            last = ranked.get(next++);
                            launchPut(race, last, objectKey, parts[p], uploads, d);
                            partOf.put(last, p);
                            inFlight[p]++;
                        }
                    }
                    timerAt = System.nanoTime() + (last != null
                            ? ranking.timerNanos(last, Op.WRITE, partSize) : d.remainingNanos());
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<Void> done = (Race.Done<Void>) event;
                int p = partOf.get(done.cloudId());
                inFlight[p]--;
                if (done.ok()) {
                    if (holders.get(p).size() < copies) {
                        holders.get(p).add(done.cloudId());
                        if (holders.get(p).size() == copies) {
                            complete++;
                        }
                    }
                } else {
                    errors.add(done.error());
                    if (holders.get(p).size() < copies && next < ranked.size()) {
                        String cloud = ranked.get(next++);
                        launchPut(race, cloud, objectKey, parts[p], uploads, d);
                        partOf.put(cloud, p);
                        inFlight[p]++;
                        timerAt = System.nanoTime() + ranking.timerNanos(cloud, Op.WRITE, partSize);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("put of '" + objectKey + "' interrupted before its metadata update;"
                    + " nothing was committed", false, e);
        }
        return holders;
    }

    private void launchPut(Race<Void> race, String cloudId, String objectKey, byte[] data, Uploads uploads,
                           Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        boolean inPlace = placement.onCallerThread(cloudId, ranking.timerNanos(cloudId, Op.WRITE, data.length), d);
        race.launch(cloudId, () -> {
            long t0 = System.nanoTime();
            try {
                cloud.put(objectKey, data);
            } catch (RuntimeException e) {
                ranking.recordError(cloudId, Op.WRITE, data.length, e);
                report(cloudId, CloudOperation.PUT, objectKey, Outcome.ERROR, t0, 0, e);
                throw e;
            }
            ranking.recordSuccess(cloudId, Op.WRITE, data.length, System.nanoTime() - t0);
            report(cloudId, CloudOperation.PUT, objectKey, Outcome.OK, t0, data.length, null);
            if (!uploads.stored(cloudId)) {
                gc.deleteObject(cloud, objectKey, data, uploads.sharedName());
            }
            return null;
        }, inPlace);
    }

    // ------------------------------------------------------------------ read races

    /**
     * What one cloud is asked for in a read: the object's expected length and SHA-256 (or, for a request started
     * before the hash is known, the {@link LateHash} that will give it), and the object (and chunk, or
     * {@link Expected#WHOLE}) that errors name (for instance {@code chunk 2 of 'k#1_c.a'}).
     */
    record Expected(long length, byte[] sha256, String objectKey, int chunk, LateHash late) {
        /** A whole object (a replicated value). */
        static final int WHOLE = -1;

        /** An object whose hash is known when the request starts. */
        Expected(long length, byte[] sha256, String objectKey, int chunk) {
            this(length, sha256, objectKey, chunk, null);
        }

        /** An object requested before its hash is known: the answer is judged once {@code late} resolves. */
        static Expected late(long length, String objectKey, int chunk, LateHash late) {
            return new Expected(length, null, objectKey, chunk, java.util.Objects.requireNonNull(late, "late"));
        }

        /** How errors name it: built only when one does (every read makes an {@code Expected}). */
        String what() {
            return chunk == WHOLE ? "object '" + objectKey + "'" : "chunk " + chunk + " of '" + objectKey + "'";
        }
    }

    /**
     * The common-case read: requests the object from the {@code needed} clouds of {@code candidates} ranked fastest
     * for reads of {@code size}, and one more whenever a timer expires or an answer fails, until {@code needed}
     * clouds answered with verified bytes.
     *
     * @param shortfall what the deadline exception says was not found, e.g. {@code no copy matching the metadata hash}
     * @return the verified answers by cloud (at least {@code needed}), or null when the candidates cannot provide
     *     them (every candidate failed, or the last timer expired with none left): the caller runs the worst case
     * @throws DeadlineExceededException when the deadline passes first
     */
    Map<String, byte[]> read(String objectKey, List<String> candidates, int needed, long size,
                             Function<String, Expected> expected, String shortfall, Deadline d,
                             List<Throwable> failures) {
        return finishRead(startRead(objectKey, candidates, needed, size, expected, shortfall, d), d, failures);
    }

    /**
     * Starts the race of {@link #read}: launches its first requests and returns. {@link #finishRead} runs the rest
     * (on the same caller); {@link PendingRead#abandon()} gives it up. A caller that learns only later whether it
     * wants the bytes (a speculative read) starts the race first and does its other work while the requests run.
     */
    PendingRead startRead(String objectKey, List<String> candidates, int needed, long size,
                          Function<String, Expected> expected, String shortfall, Deadline d) {
        List<String> ranked = preference.order(candidates, Op.READ, size);
        PendingRead p = new PendingRead(this, objectKey, candidates, ranked, needed, size, expected, shortfall);
        p.timerAt = System.nanoTime();
        p.startedAt = p.timerAt;
        p.hedging = hedgeable(ranked, Math.min(needed, ranked.size())); // whether the running timer is a hedge
        for (; p.next < Math.min(needed, ranked.size()); p.next++) {
            p.timerAt = Math.max(p.timerAt, launchRead(p, ranked.get(p.next), d));
        }
        return p;
    }

    /**
     * Runs the race {@link #startRead} started to its end: see {@link #read}.
     *
     * @throws DeadlineExceededException when the deadline passes first
     */
    Map<String, byte[]> finishRead(PendingRead p, Deadline d, List<Throwable> failures) {
        try {
            while (true) {
                Object event = p.poll(d.cap(p.timerAt - System.nanoTime()));
                if (event == null) {
                    if (d.expired()) {
                        leaveBehind(p); // a request still running would otherwise hold its I/O thread past the GET
                        throw readDeadline(p.objectKey, p.shortfall, p.candidates, d, failures);
                    }
                    if (!p.hedging) {
                        for (String slow : p.runningClouds()) {
                            ranking.recordFailure(slow, Op.READ, p.size);
                        }
                    }
                    if (p.next >= p.ranked.size()) {
                        abandonRead(p); // the last timer is the paper's: the slow ones were penalized
                        return null;
                    }
                    p.hedging = hedgeable(p.ranked, p.next + 1);
                    p.timerAt = launchRead(p, p.ranked.get(p.next), d);
                    p.next++;
                    continue;
                }
                @SuppressWarnings("unchecked")
                Race.Done<byte[]> done = (Race.Done<byte[]>) event;
                p.answered++;
                if (done.ok()) {
                    if (p.needed == 1 && !p.raced()) {
                        return Map.of(done.cloudId(), done.value()); // the usual read of a bounded cloud
                    }
                    p.got.put(done.cloudId(), done.value());
                    if (p.got.size() >= p.needed) {
                        leaveBehind(p);
                        return p.got;
                    }
                    if (p.next >= p.ranked.size() && p.answered == p.next) {
                        return null; // every candidate answered: fewer than needed verified answers
                    }
                    continue;
                }
                failures.add(done.error());
                if (p.next < p.ranked.size()) {
                    p.hedging = hedgeable(p.ranked, p.next + 1);
                    p.timerAt = launchRead(p, p.ranked.get(p.next), d);
                    p.next++;
                } else if (p.answered == p.next) {
                    return null;
                }
            }
        } catch (InterruptedException e) {
            abandonRead(p);
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("get of '" + p.objectKey + "' interrupted", false, e);
        }
    }

    /** Abandons the requests of a read still running (reported as abandoned, no penalty). */
    void abandonRead(PendingRead p) {
        if (p.raced()) {
            abandon(p.race(), p.objectKey);
        }
    }

    /**
     * Whether a timer may be a hedge: hedging is on and the cloud it would launch, {@code ranked.get(following)},
     * exists and is not quarantined (asking a cloud that keeps failing hash checks early only costs a request; it
     * is still asked when the paper's timer expires or an answer fails). With no cloud left to hedge to, the
     * paper's timer decides when the worst-case read takes over.
     */
    private boolean hedgeable(List<String> ranked, int following) {
        return hedge && following < ranked.size() && !quarantine.quarantined(ranked.get(following));
    }

    /**
     * Launches the common-case read of one cloud and returns when its timer expires: the cloud's observed p95 for
     * a hedge, else the paper's timer.
     */
    private long launchRead(PendingRead p, String cloudId, Deadline d) {
        long timer = p.hedging ? ranking.hedgeNanos(cloudId, p.size, hedgeMinNanos)
                : ranking.timerNanos(cloudId, Op.READ, p.size);
        long now = System.nanoTime();
        Expected what = p.expected.apply(cloudId);
        if (!p.raced() && placement.onCallerThread(cloudId, timer, d)) {
            // nothing runs elsewhere yet: run it here without a race, as the race would (its timer cannot expire
            // before it returns)
            CloudStore cloud = clouds.get(cloudId);
            p.answeredHere(Race.callHere(cloudId, () -> verifiedGet.fetch(cloud, cloudId, p.objectKey, what)));
            return now + timer;
        }
        p.launchedAt.put(cloudId, now);
        launchGet(p.race(), cloudId, p.objectKey, what, timer, d);
        return now + timer;
    }

    /**
     * Abandons the requests still running; with hedging, each is recorded as left behind (a censored sample; a
     * cloud left behind three times in a row is penalized, so one that hangs sinks while one slow answer costs
     * nothing).
     */
    private void leaveBehind(PendingRead p) {
        if (hedge) {
            long now = System.nanoTime();
            for (String cloudId : p.runningClouds()) {
                ranking.recordLeftBehind(cloudId, p.size, now - p.launchedAt.get(cloudId));
            }
        }
        abandonRead(p);
    }

    /**
     * One round of the worst-case read (paper §3.5): requests the object from every candidate at once (but one
     * still asked in the last round), re-requests from a cloud whose answer failed (with exponential backoff),
     * until {@code needed} clouds answered with verified bytes. The caller owns {@code race} (created by
     * {@link #newReadRace()}, signalled by a metadata watch): it may run the next round of the same object on it,
     * so requests slower than a round are not restarted (which a cloud slower than a round would never answer),
     * and cancels it when the object changes and at the end.
     *
     * @return the verified answers by cloud, or null when the caller should re-read metadata ({@code changed} was
     *     signalled, or the round ended: the requests still running are left running)
     * @throws DeadlineExceededException when the deadline passes first
     */
    Map<String, byte[]> readRound(Race<byte[]> race, Race.Signal changed, String objectKey, List<String> candidates,
                                  int needed, Function<String, Expected> expected, String shortfall, Deadline d,
                                  List<Throwable> failures) throws InterruptedException {
        Map<String, byte[]> got = new HashMap<>();
        Map<String, Long> retryAt = new HashMap<>();
        Map<String, Long> backoff = new HashMap<>();
        for (String cloud : candidates) {
            if (race.isRunning(cloud)) {
                continue; // still asked from the last round, for the same object: its answer may be close
            }
            Expected what = expected.apply(cloud);
            launchGet(race, cloud, objectKey, what, ranking.timerNanos(cloud, Op.READ, what.length()), d);
        }
        long roundEnd = System.nanoTime() + WORST_CASE_ROUND_NANOS;
        while (true) {
            long now = System.nanoTime();
            long wake = roundEnd;
            for (long t : retryAt.values()) {
                wake = Math.min(wake, t);
            }
            Object event = race.poll(d.cap(wake - now));
            if (event == changed) {
                return null; // restart with the new metadata
            }
            if (event == null) {
                if (d.expired()) {
                    throw readDeadline(objectKey, shortfall, candidates, d, failures);
                }
                now = System.nanoTime();
                if (now >= roundEnd) {
                    return null; // re-read metadata in case a notification was lost
                }
                for (Map.Entry<String, Long> e : new ArrayList<>(retryAt.entrySet())) {
                    if (e.getValue() <= now) {
                        retryAt.remove(e.getKey());
                        Expected what = expected.apply(e.getKey());
                        launchGet(race, e.getKey(), objectKey, what,
                                ranking.timerNanos(e.getKey(), Op.READ, what.length()), d);
                    }
                }
                continue;
            }
            if (!(event instanceof Race.Done<?>)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Race.Done<byte[]> done = (Race.Done<byte[]>) event;
            if (!candidates.contains(done.cloudId())) {
                // a request of an earlier round to a cloud the metadata no longer lists (its copy or fragment was
                // moved meanwhile): its answer is not this round's to take, nor its failure to retry
                continue;
            }
            if (done.ok()) {
                got.put(done.cloudId(), done.value());
                if (got.size() >= needed) {
                    abandon(race, objectKey);
                    return got;
                }
                continue;
            }
            failures.add(done.error());
            long wait = backoff.merge(done.cloudId(), RETRY_BACKOFF_MIN_NANOS,
                    (old, min) -> Math.min(old * 2, RETRY_BACKOFF_MAX_NANOS));
            retryAt.put(done.cloudId(), System.nanoTime() + wait);
        }
    }

    /**
     * Fetches from one cloud, cut at the expected length, and verifies the hash; a mismatch is an error. The
     * request runs on the caller's thread only if the cloud's call-time bound is below {@code timerNanos}.
     */
    private void launchGet(Race<byte[]> race, String cloudId, String objectKey, Expected expected, long timerNanos,
                           Deadline d) {
        CloudStore cloud = clouds.get(cloudId);
        boolean inPlace = placement.onCallerThread(cloudId, timerNanos, d);
        race.launch(cloudId, () -> verifiedGet.fetch(cloud, cloudId, objectKey, expected), inPlace);
    }

    /** Whether any of {@code cloudIds} does not bound its call time (answers over a network, in milliseconds). */
    boolean anyUnbounded(List<String> cloudIds) {
        for (String id : cloudIds) {
            if (unbounded(id)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether cloud {@code cloudId} does not bound its call time: its requests then always run on I/O threads,
     * never on the caller's.
     */
    boolean unbounded(String cloudId) {
        return !placement.bounded(cloudId);
    }

    /**
     * Stops waiting for the requests of {@code race} still running: reports each as {@link Outcome#ABANDONED} (its
     * real end, if any, is reported when it comes) and cancels them. A race that launched nothing yet
     * ({@code objectKey} may then be null) is only cancelled.
     */
    void abandon(Race<?> race, String objectKey) {
        for (String cloudId : race.runningClouds()) {
            listener.cloudRequest(new HybrisListener.CloudRequest(cloudId, CloudOperation.GET, objectKey,
                    Outcome.ABANDONED, Duration.ZERO, 0, null));
        }
        race.cancelAll();
    }

    private static DeadlineExceededException readDeadline(String objectKey, String shortfall, List<String> clouds,
                                                          Deadline d, List<Throwable> failures) {
        DeadlineExceededException e = new DeadlineExceededException("get of '" + objectKey + "' found " + shortfall
                + " on clouds " + clouds + " within " + d.budget() + " (" + failures.size() + " failed attempts,"
                + " see suppressed exceptions)");
        failures.stream().limit(20).forEach(e::addSuppressed);
        return e;
    }

    private static <E extends RuntimeException> E suppressing(E e, List<Throwable> errors) {
        errors.forEach(e::addSuppressed);
        return e;
    }

    private void report(String cloudId, CloudOperation op, String objectKey, Outcome outcome, long t0, long bytes,
                        Throwable failure) {
        VerifiedGet.report(listener, cloudId, op, objectKey, outcome, t0, bytes, failure);
    }
}
