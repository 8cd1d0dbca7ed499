/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CostEstimatorTest {
    private static final CostModel MODEL = new CostModel(1, 1);

    /** The paper's Table I workload: 10^6 PUTs and 10^6 GETs of 1 MB objects, 1 TB stored, f=1, one month. */
    private static final Workload TABLE_I = Workload.of(1e6, 1e6, PaperPrices.TB / 1e6, PaperPrices.TB);

    /** The paper rounds each column down (the calculator's cents dropped); its totals are the sums of its columns. */
    private static long[] row(CostEstimate e) {
        long put = (long) Math.floor(e.put());
        long get = (long) Math.floor(e.get());
        long storage = (long) Math.floor(e.storage());
        return new long[] {put, get, storage, put + get + storage};
    }

    @Test
    void reproducesTableIOfThePaper() {
        CostEstimator estimator = new CostEstimator(PaperPrices.threeClouds(), MODEL);
        // System              PUT  GET  Storage  Total
        // Hybris               10   92       60    162
        // Hybris-EC            15   92       45    152
        // Amazon S3             5   92       30    127
        assertThat(row(estimator.replication(TABLE_I, 1))).containsExactly(10, 92, 60, 162);
        assertThat(row(estimator.erasureCoding(TABLE_I, 2, 1))).containsExactly(15, 92, 45, 152);
        assertThat(row(estimator.singleCloud(TABLE_I))).containsExactly(5, 92, 30, 127);
    }

    @Test
    void tableIUnroundedFigures() {
        CostEstimator estimator = new CostEstimator(PaperPrices.threeClouds(), MODEL);
        CostEstimate hybris = estimator.replication(TABLE_I, 1);
        assertThat(hybris.put()).isCloseTo(10.0, within(1e-9));                     // 2 x 10^6 PUTs at $0.005/1000
        assertThat(hybris.get()).isCloseTo(0.4 + 1023 * 0.09, within(1e-6));         // 10^6 GETs + 1 TB, 1 GB free
        assertThat(hybris.storage()).isCloseTo(1024 * 0.03 + 1024 * 0.0295, within(1e-6)); // 2 TB on one account
        assertThat(hybris.writeClouds()).containsExactly("c0", "c1");
        assertThat(hybris.readClouds()).containsExactly("c0");
        CostEstimate ec = estimator.erasureCoding(TABLE_I, 2, 1);
        assertThat(ec.total().getHead()).isCloseTo(0.8, within(1e-9));                // k=2 fragment GETs per read
        assertThat(ec.perPut()).isCloseTo(3 * 0.005 / 1000, within(1e-12));
    }

    @Test
    void separateAccountsTierSeparately() {
        Map<String, CloudPrices> own = new LinkedHashMap<>();
        PaperPrices.threeClouds().forEach((id, p) -> own.put(id, p.inAccount(null)));
        CostEstimate hybris = new CostEstimator(own, MODEL).replication(TABLE_I, 1);
        assertThat(hybris.storage()).isCloseTo(2 * 1024 * 0.03, within(1e-6)); // each cloud's first TB at $0.03
    }

    @Test
    void choosesTheCheapestCloudsAndReadsFromTheCheapestEgress() {
        Map<String, CloudPrices> prices = new LinkedHashMap<>();
        prices.put("pricey", CloudPrices.flat(0.05, 0.005, 0.0004, 0, 0.15));
        prices.put("cheap-storage", CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09));
        prices.put("cheap-egress", CloudPrices.flat(0.03, 0.005, 0.0004, 0, 0.02));
        Workload w = Workload.of(1000, 1000, 1 << 20, 1000.0 * (1 << 20));
        CostEstimate r = new CostEstimator(prices, MODEL).replication(w, 1);
        assertThat(r.writeClouds()).containsExactly("cheap-egress", "cheap-storage");
        assertThat(r.readClouds()).containsExactly("cheap-egress");
        assertThat(r.volumes().get("cheap-egress").egressGb()).isCloseTo(1000.0 / 1024, within(1e-9));
        assertThat(r.volumes()).doesNotContainKey("pricey");
    }

    @Test
    void chunkedValuesCountEveryChunkAndTheManifest() {
        Workload w = Workload.of(10, 10, 100 << 20, 0).chunked(8 << 20); // 13 chunks + manifest
        CostEstimate r = new CostEstimator(PaperPrices.threeClouds(), MODEL).replication(w, 1);
        assertThat(r.volumes().get("c0").putListRequests()).isEqualTo(140);
        assertThat(r.volumes().get("c1").putListRequests()).isEqualTo(140);
        assertThat(r.volumes().get("c0").getHeadRequests()).isEqualTo(140);
        CostEstimate ec = new CostEstimator(PaperPrices.threeClouds(), MODEL).erasureCoding(w, 2, 1);
        assertThat(ec.volumes().get("c2").putListRequests()).isEqualTo(130); // fragments only
        assertThat(ec.volumes().get("c0").putListRequests()).isEqualTo(140); // fragments and the manifest
    }

    @Test
    void overwritesAndDeletesCostDeleteRequests() {
        Map<String, CloudPrices> prices = new LinkedHashMap<>();
        for (String id : new String[] {"a", "b", "c"}) {
            prices.put(id, CloudPrices.flat(0, 0, 0, 1, 0)); // $1 per 1,000 DELETEs
        }
        Workload w = Workload.of(1000, 0, 1024, 0).withChurn(0.5, 100);
        CostEstimate r = new CostEstimator(prices, MODEL).replication(w, 1);
        assertThat(r.total().delete()).isCloseTo(2 * (500 + 100) / 1000.0, within(1e-9));
    }

    @Test
    void refusesADesignWithMoreCloudsThanPriced() {
        CostEstimator estimator = new CostEstimator(Map.of("only", PaperPrices.S3_2016), MODEL);
        assertThatThrownBy(() -> estimator.replication(TABLE_I, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 2 clouds, 1 are priced");
    }
}
