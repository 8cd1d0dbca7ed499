/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Hybris paper's prices (§5.7, Table I): Amazon S3 US-East as of 2016-09-05, as its calculator applied them —
 * storage tiered per GB-month (first TB $0.0300, next 49 TB $0.0295, ...), PUT/LIST $0.005 per 1,000, GET $0.004 per
 * 10,000, egress with the first GB free then $0.09 per GB up to 10 TB. The paper prices every copy on one account.
 */
final class PaperPrices {
    static final CloudPrices S3_2016 = new CloudPrices(
            TieredPrice.parse("0.03 up to 1024, 0.0295 up to 51200, 0.029 up to 512000, 0.0285 up to 1024000,"
                    + " 0.028 up to 5120000, 0.0275"),
            0.005, 0.0004, 0, TieredPrice.parse("0 up to 1, 0.09 up to 10240, 0.085 up to 51200, 0.07 up to 153600,"
                    + " 0.05"), "aws");

    /** 10^6 objects totalling 1 TB as the calculator counts it (1,024 GB). */
    static final double TB = 1024 * CloudPrices.GB;

    private PaperPrices() {
    }

    static Map<String, CloudPrices> threeClouds() {
        Map<String, CloudPrices> m = new LinkedHashMap<>();
        m.put("c0", S3_2016);
        m.put("c1", S3_2016);
        m.put("c2", S3_2016);
        return m;
    }
}
