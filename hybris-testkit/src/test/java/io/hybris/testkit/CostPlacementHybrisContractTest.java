/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.HybrisConfig;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostSettings;
import io.hybris.cost.Placement;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;

import java.util.List;

/**
 * The end-to-end suite under {@code hybris.placement=cost}: every guarantee must hold the same. The suite injects its
 * faults into the first cloud, assuming it is written first; so the first cloud is the cheapest here and the last the
 * second cheapest, which writes to c0 and c2 where latency placement writes to c0 and c1.
 */
class CostPlacementHybrisContractTest extends HybrisContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    @Override
    protected HybrisConfig.Builder config(List<? extends CloudStore> clouds) {
        CostSettings.Builder costs = CostSettings.builder().placement(Placement.COST);
        for (int i = 0; i < clouds.size(); i++) {
            double rank = i == 0 ? 1 : clouds.size() - i + 1; // c0 cheapest, then the last, ..., c1 dearest
            costs.prices(clouds.get(i).id(), CloudPrices.flat(0.01 * rank, 0.005, 0.0004, 0, 0.02 * rank));
        }
        return super.config(clouds).costs(costs.build());
    }
}
