/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates what a {@link Workload} costs a month (docs/cost.md) stored by replication on {@code f+1} clouds, by
 * erasure coding in {@code k+f} fragments, or on one cloud, in the common case (no faults, no timer expiries):
 * a PUT writes each piece once to each chosen cloud, a GET reads one copy (or {@code k} fragments) from the
 * cheapest cloud holding it. Clouds are chosen as {@link Placement#COST} would, by the {@link CostModel}, ties in
 * the price map's order. Metadata (on private premises) is not priced. Immutable.
 */
public final class CostEstimator {
    private final Map<String, CloudPrices> prices;
    private final CostModel model;

    /**
     * @param prices the clouds available and their sheets, in preference order for ties
     * @param model  how clouds are ranked
     */
    public CostEstimator(Map<String, CloudPrices> prices, CostModel model) {
        if (prices.isEmpty()) {
            throw new IllegalArgumentException("no clouds to estimate with");
        }
        this.prices = new LinkedHashMap<>(prices);
        this.model = model;
    }

    /** Replication on {@code f+1} clouds. */
    public CostEstimate replication(Workload w, int f) {
        List<String> writes = cheapest(f + 1, w.valueBytes());
        List<String> reads = cheapestOf(writes, 1, w.valueBytes());
        Map<String, BillableVolume> v = new LinkedHashMap<>();
        double pieces = w.piecesPerValue();
        for (String cloud : writes) {
            v.put(cloud, writes(w, pieces, w.storedBytes()));
        }
        v.merge(reads.get(0), reads(w, pieces, w.valueBytes()), BillableVolume::plus);
        return new CostEstimate("replication f=" + f, w, writes, reads, v, prices);
    }

    /** Erasure coding into {@code k} data and {@code f} parity fragments (chunk manifests replicated). */
    public CostEstimate erasureCoding(Workload w, int k, int f) {
        List<String> writes = cheapest(k + f, w.valueBytes() / k);
        List<String> reads = cheapestOf(writes, k, w.valueBytes() / k);
        double chunks = w.piecesPerValue() > 1 ? w.piecesPerValue() - 1 : 1;
        Map<String, BillableVolume> v = new LinkedHashMap<>();
        for (String cloud : writes) {
            v.put(cloud, writes(w, chunks, w.storedBytes() / k));
        }
        if (w.piecesPerValue() > 1) { // the manifest, replicated on f+1 of them and read from one
            for (String cloud : writes.subList(0, f + 1)) {
                v.merge(cloud, writes(w, 1, 0), BillableVolume::plus);
            }
            v.merge(reads.get(0), reads(w, 1, 0), BillableVolume::plus);
        }
        for (String cloud : reads) {
            v.merge(cloud, reads(w, chunks, w.valueBytes() / k), BillableVolume::plus);
        }
        return new CostEstimate("erasure coding k=" + k + " f=" + f, w, writes, reads, v, prices);
    }

    /** One cloud, the cheapest. */
    public CostEstimate singleCloud(Workload w) {
        List<String> one = cheapest(1, w.valueBytes());
        double pieces = w.piecesPerValue();
        Map<String, BillableVolume> v = new LinkedHashMap<>();
        v.put(one.get(0), writes(w, pieces, w.storedBytes()).plus(reads(w, pieces, w.valueBytes())));
        return new CostEstimate("single cloud", w, one, one, v, prices);
    }

    /** Replication, erasure coding ({@code k}) and one cloud, for {@code f}. */
    public List<CostEstimate> compare(Workload w, int f, int k) {
        return List.of(replication(w, f), erasureCoding(w, k, f), singleCloud(w));
    }

    /** A cloud's write side: PUTs of every piece, DELETEs of replaced and deleted versions, its stored bytes. */
    private static BillableVolume writes(Workload w, double pieces, double storedBytes) {
        double deletes = (w.putsPerMonth() * w.overwriteFraction() + w.deletesPerMonth()) * pieces;
        return new BillableVolume(w.putsPerMonth() * pieces, 0, deletes, 0, storedBytes / CloudPrices.GB);
    }

    /** A cloud's read side: GETs of every piece and the bytes read. */
    private static BillableVolume reads(Workload w, double pieces, double bytesPerRead) {
        return new BillableVolume(0, w.getsPerMonth() * pieces, 0, w.getsPerMonth() * bytesPerRead / CloudPrices.GB,
                0);
    }

    private List<String> cheapest(int n, double bytes) {
        if (n > prices.size()) {
            throw new IllegalArgumentException("the design needs " + n + " clouds, " + prices.size() + " are priced");
        }
        List<String> ids = new ArrayList<>(prices.keySet());
        ids.sort(Comparator.comparingDouble(id -> model.write(prices.get(id), bytes)));
        return List.copyOf(ids.subList(0, n));
    }

    private List<String> cheapestOf(List<String> holders, int n, double bytes) {
        List<String> ids = new ArrayList<>(holders);
        ids.sort(Comparator.comparingDouble(id -> model.read(prices.get(id), bytes)));
        return List.copyOf(ids.subList(0, n));
    }
}
