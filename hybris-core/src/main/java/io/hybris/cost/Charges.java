/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * Money, by what it pays for, in the price sheets' currency. Immutable.
 *
 * @param storage  storage
 * @param putList  {@link RequestClass#PUT_LIST} requests
 * @param getHead  {@link RequestClass#GET_HEAD} requests
 * @param delete   {@link RequestClass#DELETE} requests
 * @param egress   bytes read out of clouds
 */
public record Charges(double storage, double putList, double getHead, double delete, double egress) {
    /** Nothing. */
    public static final Charges NONE = new Charges(0, 0, 0, 0, 0);

    /** All of it. */
    public double total() {
        return storage + putList + getHead + delete + egress;
    }

    /** What writing costs: {@link RequestClass#PUT_LIST} and {@link RequestClass#DELETE} requests. */
    public double writes() {
        return putList + delete;
    }

    /** What reading costs: {@link RequestClass#GET_HEAD} requests and egress. */
    public double reads() {
        return getHead + egress;
    }

    /** Both together. */
    public Charges plus(Charges o) {
        return new Charges(storage + o.storage, putList + o.putList, getHead + o.getHead, delete + o.delete,
                egress + o.egress);
    }
}
