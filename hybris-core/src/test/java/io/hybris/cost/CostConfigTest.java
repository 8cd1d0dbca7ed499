/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CostConfigTest {
    private static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put("hybris.rmds.type", "memory");
        for (String id : new String[] {"a", "b", "c"}) {
            m.put("hybris.cloud." + id + ".type", "memory");
        }
        return m;
    }

    private static HybrisConfig config(Map<String, String> extra) {
        Map<String, String> m = base();
        m.putAll(extra);
        return HybrisConfig.fromMap(m, Map.of());
    }

    @Test
    void readsPlacementAndPriceSheets() {
        Map<String, String> m = new HashMap<>();
        m.put("hybris.placement", "cost");
        m.put("hybris.placement.latency-objective", "300ms");
        m.put("hybris.placement.reads-per-write", "4");
        m.put("hybris.placement.version-lifetime", "24h");
        for (String id : new String[] {"a", "b", "c"}) {
            m.put("hybris.cloud." + id + ".price.storage-gb-month", "0.023");
        }
        m.put("hybris.cloud.a.price.egress-gb", "0 up to 100, 0.09");
        m.put("hybris.cloud.a.price.put-list-per-1000", "0.005");
        m.put("hybris.cloud.a.price.get-head-per-1000", "0.0004");
        m.put("hybris.cloud.a.price.account", "aws");
        CostSettings costs = config(m).costs();
        assertThat(costs.placement()).isEqualTo(Placement.COST);
        assertThat(costs.latencyObjective()).contains(Duration.ofMillis(300));
        assertThat(costs.readsPerWrite()).isEqualTo(4);
        assertThat(costs.versionLifetime()).isEqualTo(Duration.ofHours(24));
        CloudPrices a = costs.prices("a").orElseThrow();
        assertThat(a.egressPerGb()).isEqualTo(TieredPrice.parse("0 up to 100, 0.09"));
        assertThat(a.putListPer1000()).isEqualTo(0.005);
        assertThat(a.getHeadPer1000()).isEqualTo(0.0004);
        assertThat(a.deletePer1000()).isZero();
        assertThat(a.account()).isEqualTo("aws");
        assertThat(costs.prices("b").orElseThrow().egressPerGb()).isEqualTo(TieredPrice.free());
    }

    @Test
    void defaultsToLatencyPlacementWithoutPrices() {
        CostSettings costs = config(Map.of()).costs();
        assertThat(costs.placement()).isEqualTo(Placement.LATENCY);
        assertThat(costs.latencyObjective()).isEmpty();
        assertThat(costs.latencyObjectiveFactor()).isEqualTo(2.0);
        assertThat(costs.prices()).isEmpty();
        assertThat(config(Map.of("hybris.placement.latency-objective", "3x")).costs().latencyObjectiveFactor())
                .isEqualTo(3.0);
    }

    @Test
    void costPlacementNeedsEveryCloudPriced() {
        assertThatThrownBy(() -> config(Map.of("hybris.placement", "cost",
                "hybris.cloud.a.price.storage-gb-month", "0.02")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.placement=cost needs a price sheet for every cloud; none for b, c");
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> config(Map.of("hybris.placement", "cheapest")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.placement=cheapest is not a placement; use latency, cost or balanced");
        assertThatThrownBy(() -> config(Map.of("hybris.cloud.a.price.storage-gb-month", "lots")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.a.price.storage-gb-month: 'lots'");
        assertThatThrownBy(() -> config(Map.of("hybris.cloud.a.price.egress-gb", "0.09")))
                .hasMessageContaining("hybris.cloud.a.price.storage-gb-month is missing");
        assertThatThrownBy(() -> config(Map.of("hybris.cloud.a.price.storage-gb-month", "0.02",
                "hybris.cloud.a.price.get-per-1000", "0.0004")))
                .hasMessageContaining("unknown price key hybris.cloud.a.price.get-per-1000");
        assertThatThrownBy(() -> config(Map.of("hybris.cloud.a.price.storage-gb-month", "0.02",
                "hybris.cloud.a.price.put-list-per-1000", "-1")))
                .hasMessageContaining("hybris.cloud.a.price.put-list-per-1000 must be a number >= 0");
        assertThatThrownBy(() -> config(Map.of("hybris.placement.latency-objective", "0.5x")))
                .hasMessageContaining("must be >= 1x");
        assertThatThrownBy(() -> config(Map.of("hybris.placement.objective", "1s")))
                .hasMessageContaining("unknown key hybris.placement.objective");
    }

    /**
     * Clouds billed to one account share its volume tiers, so {@link Billing} refuses them different storage or
     * egress tiers: a configuration that gives them different ones must be refused when it is read, naming the keys,
     * not accepted and then fail every cost report (and estimate) with an error that names no key.
     */
    @Test
    void cloudsOfOneAccountWithDifferentTiersAreRefusedNamingTheKeys() {
        Map<String, String> m = new HashMap<>();
        m.put("hybris.cloud.a.price.storage-gb-month", "0.023");
        m.put("hybris.cloud.a.price.account", "acme");
        m.put("hybris.cloud.b.price.storage-gb-month", "0.020");
        m.put("hybris.cloud.b.price.account", "acme");
        assertThatThrownBy(() -> config(m)).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("account 'acme'")
                .hasMessageContaining("hybris.cloud.a.price.storage-gb-month=0.023")
                .hasMessageContaining("hybris.cloud.b.price.storage-gb-month=0.02");

        m.put("hybris.cloud.b.price.storage-gb-month", "0.023");
        m.put("hybris.cloud.b.price.egress-gb", "0.09");
        assertThatThrownBy(() -> config(m)).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.a.price.egress-gb=0")
                .hasMessageContaining("hybris.cloud.b.price.egress-gb=0.09");

        m.put("hybris.cloud.a.price.egress-gb", "0.09");
        m.put("hybris.cloud.a.price.put-list-per-1000", "0.005"); // request prices may differ
        assertThat(config(m).costs().prices()).containsOnlyKeys("a", "b");
    }

    @Test
    void pricesForAnUnknownCloudAreRefused() {
        assertThatThrownBy(() -> HybrisConfig.builder().metadataStore("memory", Map.of())
                .cloud("a", "memory", Map.of()).cloud("b", "memory", Map.of())
                .costs(CostSettings.builder().prices("z", CloudPrices.free()).build()).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("prices are set for cloud 'z', which is not configured (clouds: a, b)");
    }
}
