/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CloudStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Per-cloud latency estimates (paper §4.4), one per operation (read or write) and size class, updated from
 * live traffic as an exponentially weighted moving average of the median of the latest {@value #FILTER} samples.
 * Failures count as a penalty latency so a broken cloud sinks in the ranking; the first success after a failure
 * replaces the penalty outright (a failure is not a latency measurement), as a probe's measurement does, so a
 * recovered cloud climbs back as soon as it is measured again.
 *
 * <p>For hedged reads ({@code hybris.get.hedge}) the ranking also keeps each cloud's latest read latencies per size
 * class and their 95th percentile ({@link #hedgeNanos}); a request a hedge left behind is recorded as a censored
 * sample ({@link #recordLeftBehind}), and a cloud left behind three times in a row is penalized as failed, so a cloud
 * that hangs sinks after a few GETs while an occasional slow answer costs it nothing.
 *
 * <p>A cloud that ranks low gets no traffic and so no new measurements; {@link #staleSlots} names the clouds
 * and size classes whose estimates are older than a refresh interval, for {@link LatencyProber} to measure, and
 * {@link #recheckSlots} those due sooner: probed at open, or moved behind another cloud by live traffic.
 * Rankings are returned as new immutable lists, never shared mutable state. Thread-safe.
 */
public final class LatencyRanking {
    /** The operation an estimate is for. */
    public enum Op { READ, WRITE }

    private static final double ALPHA = 0.3;
    /**
     * How many of a slot's latest samples the average follows the median of: a lone slow answer (a pause, a
     * retransmission, a busy server) does not move it, so it does not hand a cloud's traffic to a slower cloud for
     * as long as that cloud then goes unmeasured; a lasting change moves it from its third sample on.
     */
    static final int FILTER = 5;
    /** An estimate that only the probe interval refreshes. */
    private static final long NO_RECHECK = Long.MAX_VALUE;
    /**
     * How long a cloud may go unmeasured after it was probed at open, or after live traffic moved it behind another
     * cloud (so it gets no more traffic), before it is probed again ({@link #recheckSlots}); each probe after that
     * doubles the wait, up to the probe interval. A cold start-up probe, or a burst of slow answers, so hands a
     * cloud's traffic to a slower one for seconds, not for a whole probe interval.
     */
    static final long RECHECK_FIRST_NANOS = Duration.ofSeconds(15).toNanos();
    private static final long RECHECK_LONGEST_NANOS = Duration.ofDays(1).toNanos();
    /**
     * How far past another cloud's estimate live traffic must move a cloud's for it to count as demoted: a cloud
     * that fell behind by less costs less than this per request until the periodic probe; the margin keeps the
     * microsecond jitter of in-memory clouds from triggering probes.
     */
    private static final long DEMOTION_MARGIN_NANOS = 1_000_000L;
    /** Reads left behind by hedges in a row that count as a failure. */
    static final int LEFT_BEHIND_LIMIT = 3;
    private static final long[] SIZE_CLASS_LIMITS = {64L << 10, 1L << 20, 16L << 20};

    private record Slot(String cloudId, Op op, int sizeClass) {
        // written out: every request looks up and updates slots, and the record's generated methods go through
        // method handles that a profile of the GET path showed outside the compiled caller
        @Override
        public boolean equals(Object o) {
            return o instanceof Slot s && sizeClass == s.sizeClass && op == s.op && cloudId.equals(s.cloudId);
        }

        @Override
        public int hashCode() {
            return (cloudId.hashCode() * 31 + op.ordinal()) * 31 + sizeClass;
        }
    }

    /**
     * One estimate: the average latency, when it was last updated, whether it is a failure penalty, the latest
     * samples (oldest first, at most {@value #FILTER}; empty for a penalty), and after how long without a new
     * measurement it is to be measured again ({@link #recheckSlots}; {@link #NO_RECHECK}: only by the probe
     * interval).
     */
    private record Estimate(double nanos, long updatedAt, boolean penalty, long[] latest, long recheckNanos) {
        static Estimate first(long sample, long now) {
            return new Estimate(sample, now, false, new long[] {sample}, NO_RECHECK);
        }

        static Estimate penalty(double nanos, long now) {
            return new Estimate(nanos, now, true, new long[0], NO_RECHECK);
        }

        /** A probe's measurement: it replaces the estimate, and the next recheck comes twice as late as the last. */
        static Estimate probed(Estimate old, long sample, long now) {
            long recheck = old == null || old.recheckNanos() == NO_RECHECK ? RECHECK_FIRST_NANOS
                    : Math.min(2 * old.recheckNanos(), RECHECK_LONGEST_NANOS);
            return new Estimate(sample, now, false, new long[] {sample}, recheck);
        }

        /** The average moved toward the median of the latest samples, {@code sample} included. */
        Estimate next(long sample, long now, long recheck) {
            int keep = Math.min(latest.length, FILTER - 1);
            long[] samples = new long[keep + 1];
            System.arraycopy(latest, latest.length - keep, samples, 0, keep);
            samples[keep] = sample;
            double toward = samples.length < 3 ? sample : median(samples);
            return new Estimate(nanos + ALPHA * (toward - nanos), now, false, samples, recheck);
        }

        /** The median of at most {@value #FILTER} samples (runs on every answer: no copy of the array is sorted). */
        private static long median(long[] samples) {
            return rankFromTop(samples, samples.length, (samples.length - 1) / 2);
        }
    }

    /** A cloud and size class whose estimates are due for a fresh measurement. */
    public record StaleSlot(String cloudId, int sizeClass) {
    }

    /** Failed calls of one cloud: how many, and the latest one's description and time. */
    private record Errors(long count, String last, Instant at) {
    }

    private final Map<Slot, Estimate> estimates = new ConcurrentHashMap<>();
    private final Map<Slot, ReadSamples> readSamples = new ConcurrentHashMap<>();
    /** Reads a hedge left behind since the slot's latest answer. */
    private final Map<Slot, Integer> leftBehind = new ConcurrentHashMap<>();
    private final Map<String, Errors> errors = new ConcurrentHashMap<>();
    private final List<String> configuredOrder;
    private final long timerMinNanos;
    private final long timerInitialNanos;
    private final double multiplier;
    private final LongSupplier nanoClock;

    /**
     * @param configuredOrder cloud ids in configuration order, the tie-breaker (and the order before any
     *                        observation)
     */
    public LatencyRanking(List<String> configuredOrder, Duration timerMin, Duration timerInitial, double multiplier) {
        this(configuredOrder, timerMin, timerInitial, multiplier, System::nanoTime);
    }

    LatencyRanking(List<String> configuredOrder, Duration timerMin, Duration timerInitial, double multiplier,
                   LongSupplier nanoClock) {
        this.configuredOrder = List.copyOf(configuredOrder);
        this.timerMinNanos = timerMin.toNanos();
        this.timerInitialNanos = timerInitial.toNanos();
        this.multiplier = multiplier;
        this.nanoClock = nanoClock;
    }

    static int sizeClass(long size) {
        for (int i = 0; i < SIZE_CLASS_LIMITS.length; i++) {
            if (size < SIZE_CLASS_LIMITS[i]) {
                return i;
            }
        }
        return SIZE_CLASS_LIMITS.length;
    }

    /**
     * A value size that falls in {@code sizeClass}, used for probe objects: 4 KiB, 256 KiB, 2 MiB, 16 MiB for
     * the classes below 64 KiB, 1 MiB, 16 MiB and from 16 MiB.
     */
    static int probeSize(int sizeClass) {
        return switch (sizeClass) {
            case 0 -> 4 << 10;
            case 1 -> 256 << 10;
            case 2 -> 2 << 20;
            default -> 16 << 20;
        };
    }

    /** Records a successful operation's latency. */
    public void recordSuccess(String cloudId, Op op, long size, long nanos) {
        long now = nanoClock.getAsLong();
        Slot slot = new Slot(cloudId, op, sizeClass(size));
        estimates.compute(slot, (k, old) -> old == null || old.penalty() ? Estimate.first(nanos, now)
                : demoted(k, old, old.next(nanos, now, old.recheckNanos())));
        if (op == Op.READ) {
            readSamples.computeIfAbsent(slot, s -> new ReadSamples()).add(nanos);
            if (!leftBehind.isEmpty()) {
                leftBehind.remove(slot);
            }
        }
    }

    /**
     * Records a probe's measurement ({@link LatencyProber}): a deliberate measurement of a cloud that live traffic
     * no longer measures, so it replaces the estimate (as the first success after a failure does), and schedules the
     * cloud's next recheck twice as late as its last.
     */
    public void recordProbe(String cloudId, Op op, long size, long nanos) {
        long now = nanoClock.getAsLong();
        estimates.compute(new Slot(cloudId, op, sizeClass(size)), (k, old) -> Estimate.probed(old, nanos, now));
    }

    /**
     * {@code updated}, due for a recheck soon if live traffic just moved it behind another cloud's estimate (by more
     * than noise), which takes this slot's traffic away and with it every new measurement.
     */
    private Estimate demoted(Slot slot, Estimate old, Estimate updated) {
        if (updated.nanos() <= old.nanos() || updated.recheckNanos() == RECHECK_FIRST_NANOS) {
            return updated;
        }
        for (String other : configuredOrder) {
            Estimate e = other.equals(slot.cloudId()) ? null
                    : estimates.get(new Slot(other, slot.op(), slot.sizeClass()));
            if (e != null && !e.penalty() && old.nanos() <= e.nanos() + DEMOTION_MARGIN_NANOS
                    && updated.nanos() > e.nanos() + DEMOTION_MARGIN_NANOS) {
                return new Estimate(updated.nanos(), updated.updatedAt(), false, updated.latest(), RECHECK_FIRST_NANOS);
            }
        }
        return updated;
    }

    /**
     * Records a read a hedge left behind, still running after {@code nanos} when another cloud answered: a censored
     * sample (the cloud took at least that long) for its latest-reads window, so its p95 follows a cloud that got
     * slower. It does not move the average — one slow answer among a hundred should not hand the traffic to a slower
     * cloud — but {@value #LEFT_BEHIND_LIMIT} in a row, with no answer in between, count as a failure: a cloud that
     * hangs sinks after that many GETs.
     */
    public void recordLeftBehind(String cloudId, long size, long nanos) {
        Slot slot = new Slot(cloudId, Op.READ, sizeClass(size));
        readSamples.computeIfAbsent(slot, s -> new ReadSamples()).add(nanos);
        if (leftBehind.merge(slot, 1, Integer::sum) >= LEFT_BEHIND_LIMIT) {
            leftBehind.remove(slot);
            recordFailure(cloudId, Op.READ, size);
        }
    }

    /**
     * How long a hedged GET waits for {@code cloudId} before asking the next cloud: the 95th percentile of its
     * latest {@value ReadSamples#CAPACITY} reads of this size class, at least {@code minNanos}; the paper's timer
     * ({@link #timerNanos}) until {@value ReadSamples#MIN_SAMPLES} reads were measured.
     */
    public long hedgeNanos(String cloudId, long size, long minNanos) {
        ReadSamples s = readSamples.get(new Slot(cloudId, Op.READ, sizeClass(size)));
        long p95 = s == null ? -1 : s.p95();
        return p95 < 0 ? timerNanos(cloudId, Op.READ, size) : Math.max(minNanos, p95);
    }

    /**
     * Records a failure or a timer expiry: the estimate becomes at least the cloud's timer times two, so the
     * cloud ranks behind clouds that answer.
     */
    public void recordFailure(String cloudId, Op op, long size) {
        double penalty = 2.0 * timerNanos(cloudId, op, size);
        long now = nanoClock.getAsLong();
        estimates.merge(new Slot(cloudId, op, sizeClass(size)), Estimate.penalty(penalty, now),
                (old, p) -> Estimate.penalty(Math.max(old.nanos(), p.nanos()), now));
    }

    /**
     * Records a failed call (an error, a corrupt or oversized answer, a failed probe): the penalty of
     * {@link #recordFailure}, and the error, counted and kept as the cloud's latest for {@link #status}.
     */
    public void recordError(String cloudId, Op op, long size, Throwable error) {
        recordFailure(cloudId, op, size);
        String line = describe(op, error);
        Instant at = Instant.now();
        errors.merge(cloudId, new Errors(1, line, at), (old, e) -> new Errors(old.count() + 1, e.last(), e.at()));
    }

    private static String describe(Op op, Throwable error) {
        String message = error.getMessage();
        String text = (op == Op.READ ? "read: " : "write: ") + error.getClass().getSimpleName()
                + (message == null || message.isBlank() ? "" : ": " + message.strip());
        text = text.replaceAll("\\s+", " ");
        return text.length() <= 300 ? text : text.substring(0, 297) + "...";
    }

    /**
     * A snapshot of every cloud of {@code cloudIds}, fastest first for small reads: rank, small-value estimates,
     * whether the latest observation failed, and the errors recorded.
     */
    public List<CloudStatus> status(List<String> cloudIds) {
        return status(cloudIds, null);
    }

    /** {@link #status(List)} with quarantined clouds ranked last and their remaining quarantine; null: none. */
    List<CloudStatus> status(List<String> cloudIds, Quarantine quarantine) {
        List<String> ranked = rank(cloudIds, Op.READ, 0);
        if (quarantine != null) {
            ranked = quarantine.askLast(ranked);
        }
        List<CloudStatus> out = new ArrayList<>(ranked.size());
        for (int i = 0; i < ranked.size(); i++) {
            String id = ranked.get(i);
            Estimate read = estimates.get(new Slot(id, Op.READ, 0));
            Estimate write = estimates.get(new Slot(id, Op.WRITE, 0));
            Errors e = errors.get(id);
            out.add(new CloudStatus(id, i + 1, duration(read), duration(write),
                    (read != null && read.penalty()) || (write != null && write.penalty()),
                    e == null ? 0 : e.count(), Optional.ofNullable(e == null ? null : e.last()),
                    Optional.ofNullable(e == null ? null : e.at()),
                    quarantine == null ? Optional.empty() : quarantine.remaining(id)));
        }
        return List.copyOf(out);
    }

    private static Optional<Duration> duration(Estimate e) {
        return e == null ? Optional.empty() : Optional.of(Duration.ofNanos((long) e.nanos()));
    }

    /** The current estimate in nanoseconds, or empty before any observation. */
    public OptionalDouble estimateNanos(String cloudId, Op op, long size) {
        Estimate e = estimates.get(new Slot(cloudId, op, sizeClass(size)));
        return e == null ? OptionalDouble.empty() : OptionalDouble.of(e.nanos());
    }

    /** How long to wait for {@code cloudId} before involving another cloud. */
    public long timerNanos(String cloudId, Op op, long size) {
        Estimate e = estimates.get(new Slot(cloudId, op, sizeClass(size)));
        if (e == null) {
            return Math.max(timerMinNanos, timerInitialNanos);
        }
        return Math.max(timerMinNanos, (long) Math.min(multiplier * e.nanos(), Long.MAX_VALUE / 2.0));
    }

    /**
     * The clouds (of {@code cloudIds}) and size classes to measure again: for every size class that has seen
     * traffic on any cloud, each cloud whose read or write estimate there is missing, a failure penalty, or
     * older than {@code maxAgeNanos}. Clouds that carry live traffic keep fresh estimates and are not named.
     */
    public List<StaleSlot> staleSlots(List<String> cloudIds, long maxAgeNanos) {
        long now = nanoClock.getAsLong();
        return slotsWhere(cloudIds, e -> e == null || e.penalty() || now - e.updatedAt() > maxAgeNanos);
    }

    /**
     * The clouds (of {@code cloudIds}) and size classes due for a recheck: an estimate from a probe, or one live
     * traffic moved behind another cloud's, that has gone unmeasured for its recheck wait ({@link
     * #RECHECK_FIRST_NANOS}, doubling with each probe), while that wait is still below {@code maxAgeNanos} (from
     * there {@link #staleSlots} covers it).
     */
    public List<StaleSlot> recheckSlots(List<String> cloudIds, long maxAgeNanos) {
        long now = nanoClock.getAsLong();
        return slotsWhere(cloudIds, e -> e != null && !e.penalty() && e.recheckNanos() < maxAgeNanos
                && now - e.updatedAt() > e.recheckNanos());
    }

    /**
     * For every size class in use, smallest first, the clouds of {@code cloudIds} (in that order) whose read or write
     * estimate there (null: none) is {@code due}.
     */
    private List<StaleSlot> slotsWhere(List<String> cloudIds, Predicate<Estimate> due) {
        List<StaleSlot> out = new ArrayList<>();
        for (int sc : classesInUse()) {
            for (String id : cloudIds) {
                if (due.test(estimates.get(new Slot(id, Op.READ, sc)))
                        || due.test(estimates.get(new Slot(id, Op.WRITE, sc)))) {
                    out.add(new StaleSlot(id, sc));
                }
            }
        }
        return List.copyOf(out);
    }

    /** Every cloud of {@code cloudIds} in every size class that has seen traffic (at least the smallest). */
    public List<StaleSlot> allSlots(List<String> cloudIds) {
        TreeSet<Integer> classes = classesInUse();
        classes.add(0);
        List<StaleSlot> out = new ArrayList<>();
        for (int sc : classes) {
            for (String id : cloudIds) {
                out.add(new StaleSlot(id, sc));
            }
        }
        return List.copyOf(out);
    }

    /** The size classes any cloud has an estimate for, smallest first. */
    private TreeSet<Integer> classesInUse() {
        TreeSet<Integer> classes = new TreeSet<>();
        for (Slot s : estimates.keySet()) {
            classes.add(s.sizeClass());
        }
        return classes;
    }

    /**
     * {@code candidates} ordered fastest first for {@code op} on values of {@code size}. An unobserved cloud
     * is assumed to take the initial timer, so it ranks behind clouds seen answering faster; ties keep
     * configuration order. Returns a new immutable list.
     */
    public List<String> rank(List<String> candidates, Op op, long size) {
        int sc = sizeClass(size);
        double prior = timerInitialNanos;
        int n = candidates.size();
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = candidates.get(i);
        }
        double[] nanos = new double[n];
        int[] configured = new int[n];
        for (int i = 0; i < n; i++) {
            Estimate e = estimates.get(new Slot(ids[i], op, sc));
            nanos[i] = e == null ? prior : e.nanos();
            int c = configuredOrder.indexOf(ids[i]);
            configured[i] = c < 0 ? Integer.MAX_VALUE : c;
        }
        // insertion sort on one snapshot of the estimates (a handful of clouds; runs on every request, so no maps,
        // boxing or comparator objects): by estimate, then by configured order
        for (int i = 1; i < n; i++) {
            String id = ids[i];
            double v = nanos[i];
            int c = configured[i];
            int j = i - 1;
            while (j >= 0 && (nanos[j] > v || (nanos[j] == v && configured[j] > c))) {
                ids[j + 1] = ids[j];
                nanos[j + 1] = nanos[j];
                configured[j + 1] = configured[j];
                j--;
            }
            ids[j + 1] = id;
            nanos[j + 1] = v;
            configured[j + 1] = c;
        }
        return List.of(ids);
    }

    /**
     * The element of {@code values[0, count)} that has {@code above} elements after it in ascending order (0: the
     * largest), found by keeping the {@code above + 1} largest in a small sorted array: O(count × (above + 1)), for
     * the handful of order statistics this class takes of at most {@value ReadSamples#CAPACITY} samples.
     */
    static long rankFromTop(long[] values, int count, int above) {
        long[] top = new long[above + 1]; // descending; only the first `held` entries are valid
        int held = 0;
        for (int i = 0; i < count; i++) {
            long v = values[i];
            if (held == top.length && v <= top[held - 1]) {
                continue;
            }
            int j = held == top.length ? held - 1 : held++;
            while (j > 0 && top[j - 1] < v) {
                top[j] = top[j - 1];
                j--;
            }
            top[j] = v;
        }
        return top[above];
    }

    /**
     * The latest read latencies of one slot in a ring, and their 95th percentile, recomputed every
     * {@value #RECOMPUTE_EVERY} samples by the thread adding the sample (readers only read a volatile). Lock-free;
     * a sample overwritten while copied only blurs an estimate.
     */
    static final class ReadSamples {
        static final int CAPACITY = 64;
        static final int MIN_SAMPLES = 16;
        private static final int RECOMPUTE_EVERY = 4;
        private final java.util.concurrent.atomic.AtomicLongArray ring =
                new java.util.concurrent.atomic.AtomicLongArray(CAPACITY);
        private final java.util.concurrent.atomic.AtomicLong added = new java.util.concurrent.atomic.AtomicLong();
        private volatile long p95 = -1;

        void add(long nanos) {
            long i = added.getAndIncrement();
            ring.set((int) (i % CAPACITY), nanos);
            long n = i + 1;
            if (n >= MIN_SAMPLES && (n % RECOMPUTE_EVERY == 0 || p95 < 0)) {
                int count = (int) Math.min(n, CAPACITY);
                long[] copy = new long[count];
                for (int k = 0; k < count; k++) {
                    copy[k] = ring.get(k);
                }
                // the 95th percentile is one of the few largest samples (the 4th largest of 64): a partial
                // selection instead of sorting all of them on the answering thread
                p95 = rankFromTop(copy, count, count - ((int) Math.ceil(0.95 * count) - 1) - 1);
            }
        }

        /** The 95th percentile of the latest samples, or -1 before {@link #MIN_SAMPLES}. */
        long p95() {
            return p95;
        }
    }
}
