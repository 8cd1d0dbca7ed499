/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.e2e;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.HybrisContract;
import io.hybris.testkit.StreamingContract;
import io.hybris.testkit.TestEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

import java.util.List;
import java.util.UUID;

/**
 * The core end-to-end suite with f=1 over the three emulated public clouds — S3 on MinIO, Azure Blob on Azurite,
 * GCS on fake-gcs-server — each behind its toxiproxy proxy. Every test gets a fresh object-key prefix, so the
 * suite's assertions about what lies on each cloud see only that test's objects.
 */
class EmulatedCloudsHybrisContractTest extends HybrisContract {
    private static EmulatedClouds clouds;

    @BeforeAll
    static void environment() {
        clouds = new EmulatedClouds(TestEnvironment.require());
        for (Kind kind : Kind.values()) {
            clouds.proxy(kind); // enabled, no latency
        }
    }

    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    @Override
    protected List<CloudStore> newClouds() {
        return clouds.threeStores("contract-" + UUID.randomUUID() + "/");
    }

    /** Large values over the emulated clouds: chunks, manifests, ranges ({@link StreamingContract}). */
    @Nested
    class Streaming extends StreamingContract {
        @Override
        protected MetadataStore newMetadataStore() {
            return new InMemoryMetadataStore();
        }

        @Override
        protected List<CloudStore> newClouds() {
            return clouds.threeStores("streaming-" + UUID.randomUUID() + "/");
        }
    }
}
