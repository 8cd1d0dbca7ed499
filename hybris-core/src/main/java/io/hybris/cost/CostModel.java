/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * The expected cost of one copy of a version on one cloud, by which {@link Placement#COST} orders clouds and the
 * {@link CostEstimator} picks them: for a write, one {@code PUT} request, storage of the copy for the expected
 * version lifetime, and the reads expected per write ({@code GET} request and egress of the copy); for a read, one
 * {@code GET} request and the copy's egress. Storage and egress at their list prices (the first tier that is not
 * free): a heuristic for the next byte, not a bill. Immutable.
 *
 * @param readsPerWrite   reads expected per version written
 * @param lifetimeMonths  months a version is expected to stay stored
 */
public record CostModel(double readsPerWrite, double lifetimeMonths) {
    public CostModel {
        if (!(readsPerWrite >= 0) || !(lifetimeMonths >= 0)) {
            throw new IllegalArgumentException("readsPerWrite and lifetimeMonths must be >= 0");
        }
    }

    /** The model of {@code settings}. */
    public static CostModel of(CostSettings settings) {
        return new CostModel(settings.readsPerWrite(),
                settings.versionLifetime().toSeconds() / 3600.0 / CloudPrices.HOURS_PER_MONTH);
    }

    /** The expected cost of writing a copy of {@code bytes} bytes to a cloud priced {@code p}. */
    public double write(CloudPrices p, double bytes) {
        double gb = bytes / CloudPrices.GB;
        return p.perRequest(RequestClass.PUT_LIST) + p.storagePerGbMonth().listPrice() * gb * lifetimeMonths
                + readsPerWrite * read(p, bytes);
    }

    /** The expected cost of reading a copy of {@code bytes} bytes from a cloud priced {@code p}. */
    public double read(CloudPrices p, double bytes) {
        return p.perRequest(RequestClass.GET_HEAD) + p.egressPerGb().listPrice() * bytes / CloudPrices.GB;
    }
}
