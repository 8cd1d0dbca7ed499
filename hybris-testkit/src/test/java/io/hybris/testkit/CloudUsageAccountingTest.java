/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ReadSettings;
import io.hybris.cost.CloudUsage;
import io.hybris.cost.RequestClass;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The client's request and byte counts ({@code Hybris.cloudUsage()}) against what a decorator between the client and
 * each cloud observed, per cloud and class, through a workload of every kind of cloud call — whole and chunked
 * values, overwrites (garbage collection), deletions, listings, the orphan sweep — while one cloud corrupts what it
 * returns and another fails every third request. (Erasure-coded values: {@code CostEstimatorAgreementTest} in
 * hybris-erasure.)
 */
class CloudUsageAccountingTest extends HybrisContractFixture {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    /** What a cloud saw: requests by class as the client counts them, and the bytes stored and returned. */
    static final class Observed extends ForwardingCloudStore {
        final AtomicLong putList = new AtomicLong();
        final AtomicLong getHead = new AtomicLong();
        final AtomicLong delete = new AtomicLong();
        final AtomicLong uploaded = new AtomicLong();
        final AtomicLong downloaded = new AtomicLong();

        Observed(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            putList.incrementAndGet();
            super.put(objectKey, value);
            uploaded.addAndGet(value.length);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            getHead.incrementAndGet();
            Optional<byte[]> got = super.get(objectKey, maxBytes);
            got.ifPresent(v -> downloaded.addAndGet(v.length));
            return got;
        }

        @Override
        public List<CloudObject> list(String prefix) {
            List<CloudObject> out;
            try {
                out = super.list(prefix);
            } catch (RuntimeException e) {
                putList.incrementAndGet();
                throw e;
            }
            putList.addAndGet(RequestClass.listRequests(out.size()));
            return out;
        }

        @Override
        public void delete(String objectKey) {
            delete.incrementAndGet();
            super.delete(objectKey);
        }

        CloudUsage usage() {
            return new CloudUsage(putList.get(), getHead.get(), delete.get(), uploaded.get(), downloaded.get());
        }
    }

    /** Fails every third call of any kind with a transient error. */
    static final class EveryThirdFails extends FaultInjectingCloudStore {
        private final AtomicLong calls = new AtomicLong();

        EveryThirdFails(CloudStore delegate) {
            super(delegate);
        }

        private void maybeFail() {
            if (isActive() && calls.incrementAndGet() % 3 == 0) {
                throw new io.hybris.spi.TransientCloudException(id(), "injected: every third call fails");
            }
        }

        @Override
        public void put(String objectKey, byte[] value) {
            maybeFail();
            super.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            maybeFail();
            return super.get(objectKey, maxBytes);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            maybeFail();
            return super.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            maybeFail();
            super.delete(objectKey);
        }
    }

    @Test
    void countsMatchWhatEachCloudObservedPerClass() {
        // a fourth cloud, so that a write finds f+1 clouds that answer even while two misbehave
        List<Observed> observed = List.of(new Observed(CorruptingCloudStore.of(raw.get(0))),
                new Observed(new EveryThirdFails(raw.get(1))), new Observed(raw.get(2)),
                new Observed(new io.hybris.cloud.InMemoryCloudStore("c3")));
        HybrisConfig.Builder b = config(observed).chunkThreshold(64 << 10).chunkSize(64 << 10);
        Hybris h = open(b);
        Random random = new Random(7);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String key = "k" + (i % 12); // overwrites: superseded versions are garbage-collected
            byte[] value = new byte[i % 5 == 0 ? 200 << 10 : 1 + random.nextInt(8 << 10)]; // some chunked
            random.nextBytes(value);
            h.put(C, key, value);
            h.put("other", key, value);
            keys.add(key);
        }
        for (String key : keys) {
            assertThat(h.get(C, key)).isPresent();
            assertThat(h.get("other", key)).isPresent();
        }
        h.delete(C, "k1");
        h.list(C);
        h.sweepOrphans();

        await().atMost(AWAIT).untilAsserted(() -> {
            Map<String, CloudUsage> seen = new LinkedHashMap<>();
            observed.forEach(o -> seen.put(o.id(), o.usage()));
            assertThat(h.cloudUsage()).isEqualTo(seen);
        });
        Map<String, CloudUsage> usage = h.cloudUsage();
        assertThat(usage.keySet()).containsExactly("c0", "c1", "c2", "c3");
        // every class was exercised, and the corrupting cloud's bytes counted as returned
        long gets = usage.values().stream().mapToLong(CloudUsage::getHeadRequests).sum();
        long deletes = usage.values().stream().mapToLong(CloudUsage::deleteRequests).sum();
        assertThat(gets).isGreaterThanOrEqualTo(2 * keys.size());
        assertThat(deletes).isPositive();
        assertThat(usage.get("c0").bytesDownloaded() + usage.get("c1").bytesDownloaded()
                + usage.get("c2").bytesDownloaded()).isPositive();
    }

    @Test
    void aClosedClientStillReportsWhatItCounted() {
        Hybris h = open(config(raw).reads(ReadSettings.builder().hedge(false).build()).timerMin(Duration.ofSeconds(5)));
        h.put(C, "k", new byte[1000]);
        h.close();
        long stored = h.cloudUsage().values().stream().mapToLong(CloudUsage::bytesUploaded).sum();
        assertThat(stored).isEqualTo(2000); // f+1 = 2 copies
    }
}
