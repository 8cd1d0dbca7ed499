/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfigurationException;
import io.hybris.HybrisException;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostReport;
import io.hybris.cost.CostSettings;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code Hybris.costReport(period)} (docs/cost.md, "The report"): each cloud's stored bytes are those it holds under
 * the client's object prefix — not other deployments' objects on the same bucket — a cloud whose listing fails fails
 * the report rather than being priced as empty, and a cloud without a price sheet is refused by name.
 */
class CostReportTest extends HybrisContractFixture {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    /** A cloud whose listings fail while {@link #failLists} is set. */
    static final class FailingLists extends ForwardingCloudStore {
        final AtomicBoolean failLists = new AtomicBoolean();

        FailingLists(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            if (failLists.get()) {
                throw new IllegalStateException("listing refused (injected)");
            }
            return super.list(prefix);
        }
    }

    private CostSettings.Builder pricesFor(List<? extends CloudStore> clouds) {
        CostSettings.Builder b = CostSettings.builder();
        clouds.forEach(c -> b.prices(c.id(), CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09)));
        return b;
    }

    private static long storedUnder(CloudStore cloud, String prefix) {
        return cloud.list(prefix).stream().mapToLong(CloudObject::size).sum();
    }

    @Test
    void storedBytesAreTheObjectsUnderTheClientsPrefixOnly() {
        // another deployment's objects on the same clouds, under another prefix
        raw.forEach(c -> c.put("other-deployment/x", new byte[10_000]));
        Hybris h = open(config(raw).objectPrefix("mine/").costs(pricesFor(raw).build()));
        h.put(C, "a", new byte[1_000]);
        h.put(C, "b", new byte[3_000]);

        CostReport report = h.costReport(Duration.ofDays(30));

        long total = 0;
        for (CloudStore c : raw) {
            long mine = storedUnder(c, "mine/");
            assertThat(report.clouds().get(c.id()).storedBytes()).as(c.id()).isEqualTo(mine);
            total += mine;
        }
        // f=1: each value on two clouds (plaintext: stored size = value size)
        assertThat(total).isEqualTo(2 * (1_000 + 3_000));
        assertThat(report.storagePeriod()).isEqualTo(Duration.ofDays(30));
    }

    @Test
    void aCloudWhoseListingFailsFailsTheReportInsteadOfBeingPricedEmpty() {
        FailingLists failing = new FailingLists(raw.get(0));
        List<CloudStore> clouds = List.of(failing, raw.get(1), raw.get(2));
        Hybris h = open(config(clouds).costs(pricesFor(clouds).build()));
        h.put(C, "a", new byte[1_000]);

        failing.failLists.set(true);
        assertThatThrownBy(() -> h.costReport(Duration.ofDays(30)))
                .isInstanceOf(HybrisException.class)
                .hasMessageContaining("listing a cloud failed");

        failing.failLists.set(false);
        assertThat(h.costReport(Duration.ofDays(30)).clouds()).containsOnlyKeys("c0", "c1", "c2");
    }

    @Test
    void aCloudWithoutAPriceSheetIsRefusedByName() {
        Hybris h = open(config(raw).costs(CostSettings.builder()
                .prices("c0", CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09))
                .prices("c2", CloudPrices.flat(0.02, 0.005, 0.0004, 0, 0.09)).build()));
        assertThatThrownBy(() -> h.costReport(Duration.ofDays(30)))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("none for c1:");
    }
}
