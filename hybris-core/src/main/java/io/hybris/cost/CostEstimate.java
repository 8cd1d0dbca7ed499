/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The monthly cost of one design (replication, erasure coding, one cloud) for a {@link Workload}, as the
 * {@link CostEstimator} computes it. The paper's Table I columns are {@link #put()}, {@link #get()} and
 * {@link #storage()}. Immutable.
 */
public final class CostEstimate {
    private final String design;
    private final Workload workload;
    private final List<String> writeClouds;
    private final List<String> readClouds;
    private final Map<String, BillableVolume> volumes;
    private final Map<String, Charges> charges;
    private final Charges total;

    CostEstimate(String design, Workload workload, List<String> writeClouds, List<String> readClouds,
                 Map<String, BillableVolume> volumes, Map<String, CloudPrices> prices) {
        this.design = design;
        this.workload = workload;
        this.writeClouds = List.copyOf(writeClouds);
        this.readClouds = List.copyOf(readClouds);
        this.volumes = Collections.unmodifiableMap(new LinkedHashMap<>(volumes));
        this.charges = Collections.unmodifiableMap(new LinkedHashMap<>(Billing.charge(volumes, prices)));
        this.total = Billing.total(charges);
    }

    /** The design, e.g. {@code replication f=1}. */
    public String design() {
        return design;
    }

    /** The workload estimated. */
    public Workload workload() {
        return workload;
    }

    /** The clouds written to, in order (for erasure coding, fragment i on cloud i). */
    public List<String> writeClouds() {
        return writeClouds;
    }

    /** The clouds read from. */
    public List<String> readClouds() {
        return readClouds;
    }

    /** Each cloud's monthly volume. */
    public Map<String, BillableVolume> volumes() {
        return volumes;
    }

    /** Each cloud's monthly charges. */
    public Map<String, Charges> charges() {
        return charges;
    }

    /** All clouds' charges together. */
    public Charges total() {
        return total;
    }

    /** What the PUTs cost a month (their PUT requests, and the DELETEs of the versions they replace). */
    public double put() {
        return total.writes();
    }

    /** What the GETs cost a month (GET requests and egress). */
    public double get() {
        return total.reads();
    }

    /** What storage costs a month. */
    public double storage() {
        return total.storage();
    }

    /** What it all costs a month. */
    public double monthly() {
        return total.total();
    }

    /** The write cost of one PUT (0 without PUTs). */
    public double perPut() {
        return workload.putsPerMonth() == 0 ? 0 : put() / workload.putsPerMonth();
    }

    /** The read cost of one GET (0 without GETs). */
    public double perGet() {
        return workload.getsPerMonth() == 0 ? 0 : get() / workload.getsPerMonth();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%-24s put %10.2f  get %10.2f  storage %10.2f  total %10.2f  (writes %s,"
                + " reads %s)", design, put(), get(), storage(), monthly(), writeClouds, readClouds);
    }
}
