package io.hybris.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-cloud latency estimates (paper §4.4), one per operation (read or write) and size class, updated from
 * live traffic as an exponentially weighted moving average. Failures count as a penalty latency so a broken
 * cloud sinks in the ranking. Rankings are returned as new immutable lists, never shared mutable state.
 * Thread-safe.
 */
public final class LatencyRanking {
    /** The operation an estimate is for. */
    public enum Op { READ, WRITE }

    private static final double ALPHA = 0.3;
    private static final long[] SIZE_CLASS_LIMITS = {64L << 10, 1L << 20, 16L << 20};

    private record Slot(String cloudId, Op op, int sizeClass) {
    }

    private final Map<Slot, Double> estimates = new ConcurrentHashMap<>();
    private final List<String> configuredOrder;
    private final long timerMinNanos;
    private final long timerInitialNanos;
    private final double multiplier;

    /**
     * @param configuredOrder cloud ids in configuration order, the tie-breaker (and the order before any
     *                        observation)
     */
    public LatencyRanking(List<String> configuredOrder, Duration timerMin, Duration timerInitial, double multiplier) {
        this.configuredOrder = List.copyOf(configuredOrder);
        this.timerMinNanos = timerMin.toNanos();
        this.timerInitialNanos = timerInitial.toNanos();
        this.multiplier = multiplier;
    }

    static int sizeClass(long size) {
        for (int i = 0; i < SIZE_CLASS_LIMITS.length; i++) {
            if (size < SIZE_CLASS_LIMITS[i]) {
                return i;
            }
        }
        return SIZE_CLASS_LIMITS.length;
    }

    /** Records a successful operation's latency. */
    public void recordSuccess(String cloudId, Op op, long size, long nanos) {
        estimates.merge(new Slot(cloudId, op, sizeClass(size)), (double) nanos,
                (old, now) -> old + ALPHA * (now - old));
    }

    /**
     * Records a failure or a timer expiry: the estimate becomes at least the cloud's timer times two, so the
     * cloud ranks behind clouds that answer.
     */
    public void recordFailure(String cloudId, Op op, long size) {
        double penalty = 2.0 * timerNanos(cloudId, op, size);
        estimates.merge(new Slot(cloudId, op, sizeClass(size)), penalty, Math::max);
    }

    /** The current estimate in nanoseconds, or empty before any observation. */
    public java.util.OptionalDouble estimateNanos(String cloudId, Op op, long size) {
        Double e = estimates.get(new Slot(cloudId, op, sizeClass(size)));
        return e == null ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(e);
    }

    /** How long to wait for {@code cloudId} before involving another cloud. */
    public long timerNanos(String cloudId, Op op, long size) {
        Double e = estimates.get(new Slot(cloudId, op, sizeClass(size)));
        if (e == null) {
            return Math.max(timerMinNanos, timerInitialNanos);
        }
        return Math.max(timerMinNanos, (long) Math.min(multiplier * e, Long.MAX_VALUE / 2.0));
    }

    /**
     * {@code candidates} ordered fastest first for {@code op} on values of {@code size}. An unobserved cloud
     * is assumed to take the initial timer, so it ranks behind clouds seen answering faster; ties keep
     * configuration order. Returns a new immutable list.
     */
    public List<String> rank(List<String> candidates, Op op, long size) {
        int sc = sizeClass(size);
        double prior = timerInitialNanos;
        Map<String, Double> snapshot = new java.util.HashMap<>();
        for (String id : candidates) {
            snapshot.put(id, estimates.getOrDefault(new Slot(id, op, sc), prior));
        }
        List<String> out = new ArrayList<>(candidates);
        out.sort(Comparator.<String>comparingDouble(snapshot::get)
                .thenComparingInt(id -> {
                    int i = configuredOrder.indexOf(id);
                    return i < 0 ? Integer.MAX_VALUE : i;
                }));
        return List.copyOf(out);
    }
}
