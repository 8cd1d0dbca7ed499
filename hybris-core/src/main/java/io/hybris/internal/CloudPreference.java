/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostModel;
import io.hybris.cost.CostSettings;
import io.hybris.cost.Placement;
import io.hybris.internal.LatencyRanking.Op;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The order in which a race asks clouds (docs/cost.md), by the configured {@link Placement}: fastest first by the
 * {@link LatencyRanking}; or, for {@code cost} and {@code balanced}, the clouds within the latency objective by
 * their expected cost ({@link CostModel}, alone or summed with relative latency), then the rest fastest first. The
 * relative objective ({@code 2x}) admits clouds within that multiple of the fastest's estimate plus 10 ms. The
 * order only says who is asked first: the race still needs its {@code f+1} (or {@code k+f}) distinct clouds and
 * launches the next ones when a timer expires, so every placement keeps the protocol's guarantees. A cloud not
 * measured yet counts as within the objective. Whatever the placement, clouds in {@link Quarantine} come last.
 * Thread-safe: the clouds being retired change under a lock, and every order reads one snapshot of them.
 */
final class CloudPreference {
    /** Added to a relative objective, so that jitter among clouds answering within milliseconds does not count. */
    static final long RELATIVE_SLACK_NANOS = 10_000_000;

    private final LatencyRanking ranking;
    private final Placement placement;
    private final CostSettings costs;
    private final CostModel model;
    private final Quarantine quarantine;
    /** Clouds no write may use (clouds being migrated off); reads still may. */
    private volatile java.util.Set<String> retiring = java.util.Set.of();
    /** How many migrations running retire each cloud of {@link #retiring} (guarded by {@code this}). */
    private final Map<String, Integer> retirements = new HashMap<>();

    CloudPreference(LatencyRanking ranking, CostSettings costs, Quarantine quarantine) {
        this.ranking = ranking;
        this.quarantine = quarantine;
        this.placement = costs.placement();
        this.costs = costs;
        this.model = CostModel.of(costs);
    }

    /**
     * Keeps writes off {@code cloud} until a matching {@link #unretire}: migrations of one client may run at once,
     * and the one that ends first must not put a cloud another is still moving copies off back into use.
     */
    synchronized void retire(String cloud) {
        retirements.merge(cloud, 1, Integer::sum);
        retiring = java.util.Set.copyOf(retirements.keySet());
    }

    /** Ends one {@link #retire} of {@code cloud}: writes may use it again once no migration retires it. */
    synchronized void unretire(String cloud) {
        retirements.computeIfPresent(cloud, (id, n) -> n == 1 ? null : n - 1);
        retiring = java.util.Set.copyOf(retirements.keySet());
    }

    /** {@code candidates} in the order to ask them for {@code op} on {@code size} bytes per cloud. */
    List<String> order(List<String> candidates, Op op, long size) {
        return quarantine.askLast(orderByPlacement(candidates, op, size));
    }

    private List<String> orderByPlacement(List<String> candidates, Op op, long size) {
        java.util.Set<String> off = retiring;
        if (op == Op.WRITE && !off.isEmpty()) {
            candidates = candidates.stream().filter(id -> !off.contains(id)).toList();
        }
        List<String> fastest = ranking.rank(candidates, op, size);
        if (placement == Placement.LATENCY || fastest.size() < 2) {
            return fastest;
        }
        Map<String, OptionalDouble> latency = new HashMap<>();
        double quickest = Double.MAX_VALUE;
        for (String id : fastest) {
            OptionalDouble e = ranking.estimateNanos(id, op, size);
            latency.put(id, e);
            if (e.isPresent()) {
                quickest = Math.min(quickest, e.getAsDouble());
            }
        }
        double objective = costs.latencyObjective().map(d -> (double) d.toNanos())
                .orElse(quickest == Double.MAX_VALUE ? Double.MAX_VALUE
                        : quickest * costs.latencyObjectiveFactor() + RELATIVE_SLACK_NANOS);
        List<String> within = new ArrayList<>();
        List<String> beyond = new ArrayList<>();
        for (String id : fastest) {
            OptionalDouble e = latency.get(id);
            (e.isEmpty() || e.getAsDouble() <= objective ? within : beyond).add(id);
        }
        Map<String, Double> cost = new HashMap<>();
        double cheapest = Double.MAX_VALUE;
        for (String id : within) {
            CloudPrices p = costs.prices().get(id);
            double c = p == null ? Double.MAX_VALUE : op == Op.WRITE ? model.write(p, size) : model.read(p, size);
            cost.put(id, c);
            cheapest = Math.min(cheapest, c);
        }
        Comparator<String> order;
        if (placement == Placement.COST) {
            order = Comparator.comparingDouble(cost::get);
        } else {
            double minCost = cheapest;
            double minLatency = quickest == Double.MAX_VALUE ? 1 : Math.max(1, quickest);
            order = Comparator.comparingDouble(id -> relative(cost.get(id), minCost)
                    + latency.get(id).orElse(minLatency) / minLatency);
        }
        within.sort(order); // stable: equal scores keep the latency order
        within.addAll(beyond);
        return List.copyOf(within);
    }

    private static double relative(double value, double min) {
        return min <= 0 ? (value <= 0 ? 1 : 2) : value / min;
    }
}
