/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.Objects;

/**
 * One cloud's price sheet, in one currency (whichever the sheet is in; Hybris never converts): storage per GB-month,
 * requests per 1,000 by {@link RequestClass}, and egress (bytes read out of the cloud) per GB, where a GB is
 * 2<sup>30</sup> bytes and a month 730 hours, as the providers bill. Storage and egress may be tiered.
 * Hybris ships no prices: docs/cost.md has dated example sheets to copy and check.
 *
 * <p>Clouds billed to the same {@code account} share volume tiers: their storage and egress are added up before the
 * tiers apply (as one AWS account's buckets do). By default each cloud is its own account.
 *
 * @param storagePerGbMonth storage, per GB-month
 * @param putListPer1000    {@link RequestClass#PUT_LIST} requests, per 1,000
 * @param getHeadPer1000    {@link RequestClass#GET_HEAD} requests, per 1,000
 * @param deletePer1000     {@link RequestClass#DELETE} requests, per 1,000
 * @param egressPerGb       bytes read from the cloud, per GB
 * @param account           the billing account whose volume tiers this cloud shares, or null for its own
 */
public record CloudPrices(TieredPrice storagePerGbMonth, double putListPer1000, double getHeadPer1000,
                          double deletePer1000, TieredPrice egressPerGb, String account) {
    /** Bytes in a GB, as clouds bill. */
    public static final double GB = 1L << 30;
    /** Hours in a billing month (365 * 24 / 12). */
    public static final double HOURS_PER_MONTH = 730;

    public CloudPrices {
        Objects.requireNonNull(storagePerGbMonth, "storagePerGbMonth");
        Objects.requireNonNull(egressPerGb, "egressPerGb");
        check("putListPer1000", putListPer1000);
        check("getHeadPer1000", getHeadPer1000);
        check("deletePer1000", deletePer1000);
        if (account != null && account.isBlank()) {
            account = null;
        }
    }

    private static void check(String what, double price) {
        if (!(price >= 0) || Double.isInfinite(price)) {
            throw new IllegalArgumentException(what + " must be a finite price >= 0: " + price);
        }
    }

    /** A sheet with flat prices and its own account. */
    public static CloudPrices flat(double storagePerGbMonth, double putListPer1000, double getHeadPer1000,
                                   double deletePer1000, double egressPerGb) {
        return new CloudPrices(TieredPrice.flat(storagePerGbMonth), putListPer1000, getHeadPer1000, deletePer1000,
                TieredPrice.flat(egressPerGb), null);
    }

    /** Everything free (a private cloud whose cost is elsewhere). */
    public static CloudPrices free() {
        return flat(0, 0, 0, 0, 0);
    }

    /** This sheet billed to {@code account}. */
    public CloudPrices inAccount(String account) {
        return new CloudPrices(storagePerGbMonth, putListPer1000, getHeadPer1000, deletePer1000, egressPerGb,
                account);
    }

    /** The price of one request of class {@code c}. */
    public double perRequest(RequestClass c) {
        return switch (c) {
            case PUT_LIST -> putListPer1000 / 1000;
            case GET_HEAD -> getHeadPer1000 / 1000;
            case DELETE -> deletePer1000 / 1000;
        };
    }
}
