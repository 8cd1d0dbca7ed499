/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.cost.BillableVolume;
import io.hybris.cost.Billing;
import io.hybris.cost.Charges;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CloudUsage;
import io.hybris.cost.CostEstimate;
import io.hybris.cost.CostEstimator;
import io.hybris.cost.CostModel;
import io.hybris.cost.CostSettings;
import io.hybris.cost.TieredPrice;
import io.hybris.cost.Workload;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The estimator against a real run: the same workload (PUTs then GETs of 1 MiB values, f=1) against in-memory
 * clouds priced with the paper's sheet (Amazon S3, 2016-09-05) costs, per operation, what the {@link CostEstimator}
 * says, for replication and for erasure coding (k=2). Timers are long, so no secondary request runs (the estimate is
 * of the common case).
 */
class CostEstimatorAgreementTest {
    private static final int OPS = 40;
    private static final int SIZE = 1 << 20;
    /** The paper's S3 sheet, all copies on one account. */
    private static final CloudPrices PAPER = new CloudPrices(
            TieredPrice.parse("0.03 up to 1024, 0.0295 up to 51200, 0.029"), 0.005, 0.0004, 0,
            TieredPrice.parse("0 up to 1, 0.09 up to 10240, 0.085"), "aws");
    /** The same without the free first GB of egress, so that this small run's egress costs something. */
    private static final CloudPrices PAPER_NO_FREE_GB = new CloudPrices(PAPER.storagePerGbMonth(), 0.005, 0.0004, 0,
            TieredPrice.parse("0.09 up to 10240, 0.085"), "aws");

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private Hybris hybris;

    @AfterEach
    void close() {
        if (hybris != null) {
            hybris.close();
        }
    }

    private Map<String, CloudPrices> prices(CloudPrices sheet) {
        Map<String, CloudPrices> m = new LinkedHashMap<>();
        for (String id : new String[] {"c0", "c1", "c2"}) {
            m.put(id, sheet);
        }
        return m;
    }

    /** Runs the workload in {@code container}; returns each phase's usage: [puts, gets]. */
    private Map<String, CloudUsage>[] run(String container) {
        Random random = new Random(11);
        Map<String, CloudUsage> start = hybris.cloudUsage();
        for (int i = 0; i < OPS; i++) {
            byte[] v = new byte[SIZE];
            random.nextBytes(v);
            hybris.put(container, "k" + i, v);
        }
        Map<String, CloudUsage> afterPuts = hybris.cloudUsage();
        for (int i = 0; i < OPS; i++) {
            assertThat(hybris.get(container, "k" + i)).isPresent();
        }
        Map<String, CloudUsage> afterGets = hybris.cloudUsage();
        @SuppressWarnings("unchecked")
        Map<String, CloudUsage>[] out = new Map[] {minus(afterPuts, start), minus(afterGets, afterPuts)};
        return out;
    }

    private static Map<String, CloudUsage> minus(Map<String, CloudUsage> later, Map<String, CloudUsage> earlier) {
        Map<String, CloudUsage> out = new LinkedHashMap<>();
        later.forEach((id, u) -> out.put(id, u.minus(earlier.get(id))));
        return out;
    }

    private static Charges charges(Map<String, CloudUsage> usage, Map<String, CloudPrices> prices) {
        Map<String, BillableVolume> volumes = new LinkedHashMap<>();
        usage.forEach((id, u) -> volumes.put(id, u.billable(0)));
        return Billing.total(Billing.charge(volumes, prices));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void perOperationCostsMatchTheEstimator(boolean freeFirstGb) {
        Map<String, CloudPrices> prices = prices(freeFirstGb ? PAPER : PAPER_NO_FREE_GB);
        CostSettings.Builder costs = CostSettings.builder();
        prices.forEach(costs::prices);
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(metadata)
                .cloud(new InMemoryCloudStore("c0")).cloud(new InMemoryCloudStore("c1"))
                .cloud(new InMemoryCloudStore("c2")).reads(ReadSettings.builder().hedge(false).build())
                .timerMin(Duration.ofSeconds(10))
                .timerInitial(Duration.ofSeconds(10)).containerErasurePolicy("coded", ErasurePolicy.ERASURE)
                .costs(costs.build()).build());
        CostEstimator estimator = new CostEstimator(prices, new CostModel(1, 1));
        Workload w = Workload.of(OPS, OPS, SIZE, 0);

        Map<String, CloudUsage>[] replicated = run("plain");
        assertAgrees(replicated, prices, estimator.replication(w, 1), 2, 1);

        Map<String, CloudUsage>[] coded = run("coded");
        assertAgrees(coded, prices, estimator.erasureCoding(w, 2, 1), 3, 2);
    }

    private static void assertAgrees(Map<String, CloudUsage>[] phases, Map<String, CloudPrices> prices,
                                     CostEstimate estimate, int putsPerPut, int getsPerGet) {
        long puts = phases[0].values().stream().mapToLong(CloudUsage::putListRequests).sum();
        long gets = phases[1].values().stream().mapToLong(CloudUsage::getHeadRequests).sum();
        long downloaded = phases[1].values().stream().mapToLong(CloudUsage::bytesDownloaded).sum();
        assertThat(puts).as("PUT requests").isEqualTo((long) putsPerPut * OPS);
        assertThat(gets).as("GET requests").isEqualTo((long) getsPerGet * OPS);
        // an erasure-coded fragment carries a few bytes of framing: within 0.1% of size/k
        assertThat((double) downloaded).as("bytes read").isCloseTo((double) OPS * SIZE, within(OPS * SIZE * 1e-3));

        Charges putCharges = charges(phases[0], prices);
        Charges getCharges = charges(phases[1], prices);
        assertThat(putCharges.writes() / OPS).as("cost per PUT").isCloseTo(estimate.perPut(), within(1e-12));
        assertThat(getCharges.reads() / OPS).as("cost per GET")
                .isCloseTo(estimate.perGet(), within(Math.max(1e-12, estimate.perGet() * 1e-3)));
    }
}
