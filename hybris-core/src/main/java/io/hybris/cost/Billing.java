/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns volumes into money with price sheets: requests at their class's price; storage and egress through their
 * tiers, with the volumes of clouds billed to one {@link CloudPrices#account() account} added up first and the
 * result shared among them in proportion to their volume. The cost report and the estimator both price here.
 */
public final class Billing {
    private Billing() {
    }

    /**
     * The charges of each cloud of {@code volumes}.
     *
     * @throws IllegalArgumentException if a cloud has no price sheet, or clouds sharing an account have different
     *                                  storage or egress tiers
     */
    public static Map<String, Charges> charge(Map<String, BillableVolume> volumes, Map<String, CloudPrices> prices) {
        Map<String, BillableVolume> byAccount = new LinkedHashMap<>();
        Map<String, CloudPrices> accountPrices = new LinkedHashMap<>();
        volumes.forEach((cloud, v) -> {
            CloudPrices p = sheet(prices, cloud);
            String account = account(cloud, p);
            CloudPrices other = accountPrices.putIfAbsent(account, p);
            if (other != null && (!other.storagePerGbMonth().equals(p.storagePerGbMonth())
                    || !other.egressPerGb().equals(p.egressPerGb()))) {
                throw new IllegalArgumentException("clouds billed to account '" + account + "' have different storage"
                        + " or egress tiers; one account has one price sheet");
            }
            byAccount.merge(account, v, BillableVolume::plus);
        });
        Map<String, Charges> out = new LinkedHashMap<>();
        volumes.forEach((cloud, v) -> {
            CloudPrices p = sheet(prices, cloud);
            BillableVolume pooled = byAccount.get(account(cloud, p));
            out.put(cloud, new Charges(
                    share(v.storageGbMonths(), pooled.storageGbMonths(), p.storagePerGbMonth()),
                    v.putListRequests() * p.perRequest(RequestClass.PUT_LIST),
                    v.getHeadRequests() * p.perRequest(RequestClass.GET_HEAD),
                    v.deleteRequests() * p.perRequest(RequestClass.DELETE),
                    share(v.egressGb(), pooled.egressGb(), p.egressPerGb())));
        });
        return out;
    }

    /** The sum of {@code charges}. */
    public static Charges total(Map<String, Charges> charges) {
        return charges.values().stream().reduce(Charges.NONE, Charges::plus);
    }

    private static double share(double own, double pooled, TieredPrice price) {
        return pooled <= 0 ? 0 : price.cost(pooled) * (own / pooled);
    }

    private static CloudPrices sheet(Map<String, CloudPrices> prices, String cloud) {
        CloudPrices p = prices.get(cloud);
        if (p == null) {
            throw new IllegalArgumentException("no prices for cloud '" + cloud + "' (priced: " + prices.keySet()
                    + "); set hybris.cloud." + cloud + ".price.*");
        }
        return p;
    }

    private static String account(String cloud, CloudPrices p) {
        return p.account() != null ? "account:" + p.account() : "cloud:" + cloud;
    }
}
