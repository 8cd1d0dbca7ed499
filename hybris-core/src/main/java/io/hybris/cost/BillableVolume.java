/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * What one cloud bills for over a period: requests by class, egress and storage. Fractional, as an estimate's
 * volumes are. Immutable.
 *
 * @param putListRequests {@link RequestClass#PUT_LIST} requests
 * @param getHeadRequests {@link RequestClass#GET_HEAD} requests
 * @param deleteRequests  {@link RequestClass#DELETE} requests
 * @param egressGb        GB read out of the cloud
 * @param storageGbMonths GB stored, times the months they were stored
 */
public record BillableVolume(double putListRequests, double getHeadRequests, double deleteRequests, double egressGb,
                             double storageGbMonths) {
    /** Nothing. */
    public static final BillableVolume NONE = new BillableVolume(0, 0, 0, 0, 0);

    public BillableVolume {
        for (double v : new double[] {putListRequests, getHeadRequests, deleteRequests, egressGb, storageGbMonths}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("volumes must be finite and >= 0: " + v);
            }
        }
    }

    /** The requests of class {@code c}. */
    public double requests(RequestClass c) {
        return switch (c) {
            case PUT_LIST -> putListRequests;
            case GET_HEAD -> getHeadRequests;
            case DELETE -> deleteRequests;
        };
    }

    /** Both volumes together. */
    public BillableVolume plus(BillableVolume o) {
        return new BillableVolume(putListRequests + o.putListRequests, getHeadRequests + o.getHeadRequests,
                deleteRequests + o.deleteRequests, egressGb + o.egressGb, storageGbMonths + o.storageGbMonths);
    }
}
