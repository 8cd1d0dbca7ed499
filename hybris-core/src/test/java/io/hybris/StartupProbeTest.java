/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up probe (performance issue, item 6): by default a client whose clouds are reached over the network
 * measures them in the background right after opening, so its first writes do not simply go to the clouds whose
 * ids sort first; {@code true} makes opening wait for the probe; clouds supplied as instances and local clouds are
 * not probed unless asked. Type {@code probe-held} stands for a network cloud: an in-memory store whose probe
 * uploads wait until the test releases them, so the test can tell whether opening waited.
 */
class StartupProbeTest {
    private static final Duration AWAIT = Duration.ofSeconds(10);

    @AfterEach
    void releaseEverything() {
        HeldProbesProvider.release.release(1000);
    }

    private static HybrisConfig.Builder networkClouds() {
        HeldProbesProvider.reset();
        return HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore()).probeInterval(Duration.ZERO)
                .cloud("a", "probe-held", Map.of()).cloud("b", "probe-held", Map.of())
                .cloud("c", "probe-held", Map.of());
    }

    @Test
    void byDefaultNetworkCloudsAreProbedInTheBackgroundAfterOpening() throws Exception {
        HybrisConfig config = networkClouds().build();
        assertThat(config.startupProbe()).isEqualTo(StartupProbe.AUTO);
        try (Hybris h = Hybris.open(config)) { // returns although every probe upload is held
            assertThat(HeldProbesProvider.held.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            h.put("box", "k", new byte[] {1}); // usable while the probe runs
            assertThat(h.get("box", "k")).hasValue(new byte[] {1});
            HeldProbesProvider.release.release(1000);
            awaitProbed(Set.of("a", "b", "c"));
        }
    }

    @Test
    void closingWhileTheStartupProbeRunsLetsItFinishAndLeavesNoProbeObject() throws Exception {
        Hybris h = Hybris.open(networkClouds().build());
        assertThat(HeldProbesProvider.held.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(h::close);
        assertThat(closing).as("close waits for the held probe").isNotDone();
        HeldProbesProvider.release.release(1000);
        closing.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(HeldProbesProvider.stores).hasSize(3).allSatisfy(store ->
                assertThat(store.list("")).extracting(CloudObject::key).noneMatch(k -> k.contains(".probe/")));
    }

    @Test
    void probeOnOpenTrueMakesOpeningWaitForTheProbe() throws Exception {
        HybrisConfig config = networkClouds().probeOnOpen(true).build();
        assertThat(config.startupProbe()).isEqualTo(StartupProbe.WAIT);
        CompletableFuture<Hybris> opening = CompletableFuture.supplyAsync(() -> Hybris.open(config));
        assertThat(HeldProbesProvider.held.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(opening).as("open waits while the probe uploads are held").isNotDone();
        HeldProbesProvider.release.release(1000);
        try (Hybris h = opening.get(AWAIT.toSeconds(), TimeUnit.SECONDS)) {
            assertThat(HeldProbesProvider.probed).containsExactlyInAnyOrder("a", "b", "c");
            assertThat(h.cloudStatus()).allSatisfy(s -> assertThat(s.readLatency()).isPresent());
        }
    }

    @Test
    void theAutomaticProbeIsOnlyForCloudsReachedOverTheNetwork() {
        HybrisConfig.Builder local = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud("a", "memory", Map.of()).cloud("b", "memory", Map.of()).cloud("c", "memory", Map.of());
        assertThat(ClientRuntime.probesInBackground(local.build())).isFalse();
        HybrisConfig.Builder instances = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(new InMemoryCloudStore("a")).cloud(new InMemoryCloudStore("b"))
                .cloud(new InMemoryCloudStore("c"));
        assertThat(ClientRuntime.probesInBackground(instances.build())).isFalse();
        assertThat(ClientRuntime.probesInBackground(networkClouds().build())).isTrue();
        assertThat(ClientRuntime.probesInBackground(networkClouds().probeOnOpen(false).build())).isFalse();
        assertThat(ClientRuntime.probesInBackground(networkClouds().probeOnOpen(true).build()))
                .as("true probes while opening, not in the background").isFalse();
    }

    @Test
    void thePropertyTakesAutoTrueOrFalse() {
        Map<String, String> base = Map.of("hybris.rmds.type", "memory", "hybris.cloud.a.type", "memory",
                "hybris.cloud.b.type", "memory", "hybris.cloud.c.type", "memory");
        assertThat(HybrisConfig.fromMap(base, Map.of()).startupProbe()).isEqualTo(StartupProbe.AUTO);
        for (Map.Entry<String, StartupProbe> e : Map.of("auto", StartupProbe.AUTO, "true", StartupProbe.WAIT,
                "FALSE", StartupProbe.OFF).entrySet()) {
            assertThat(HybrisConfig.fromMap(base, Map.of("HYBRIS_RANKING_PROBE_ON_OPEN", e.getKey())).startupProbe())
                    .isEqualTo(e.getValue());
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HybrisConfig.fromMap(base,
                        Map.of("HYBRIS_RANKING_PROBE_ON_OPEN", "sometimes")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.ranking.probe-on-open").hasMessageContaining("auto");
    }

    private static void awaitProbed(Set<String> clouds) throws InterruptedException {
        long end = System.nanoTime() + AWAIT.toNanos();
        while (!HeldProbesProvider.probed.containsAll(clouds) && System.nanoTime() < end) {
            synchronized (HeldProbesProvider.probed) {
                HeldProbesProvider.probed.wait(100);
            }
        }
        assertThat(HeldProbesProvider.probed).containsAll(clouds);
    }

    /** Type {@code probe-held}: in-memory clouds whose probe uploads wait for {@link #release}. */
    public static final class HeldProbesProvider implements CloudStoreProvider {
        static volatile CountDownLatch held = new CountDownLatch(1);
        static volatile Semaphore release = new Semaphore(0);
        static final Set<String> probed = ConcurrentHashMap.newKeySet();
        static final List<CloudStore> stores = new java.util.concurrent.CopyOnWriteArrayList<>();

        static void reset() {
            held = new CountDownLatch(1);
            release = new Semaphore(0);
            probed.clear();
            stores.clear();
        }

        @Override
        public String type() {
            return "probe-held";
        }

        @Override
        public Set<String> optionNames() {
            return Set.of();
        }

        @Override
        public CloudStore create(String cloudId, ProviderOptions options) {
            InMemoryCloudStore store = new InMemoryCloudStore(cloudId);
            stores.add(store);
            return new CloudStore() {
                @Override
                public String id() {
                    return cloudId;
                }

                @Override
                public void put(String objectKey, byte[] value) {
                    if (objectKey.contains(".probe/")) {
                        held.countDown();
                        try {
                            release.acquire();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new io.hybris.spi.TransientCloudException(cloudId, "interrupted", e);
                        }
                        release.release();
                    }
                    store.put(objectKey, value);
                }

                @Override
                public Optional<byte[]> get(String objectKey, long maxBytes) {
                    Optional<byte[]> got = store.get(objectKey, maxBytes);
                    if (objectKey.contains(".probe/")) {
                        synchronized (probed) {
                            probed.add(cloudId);
                            probed.notifyAll();
                        }
                    }
                    return got;
                }

                @Override
                public List<CloudObject> list(String prefix) {
                    return store.list(prefix);
                }

                @Override
                public void delete(String objectKey) {
                    store.delete(objectKey);
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
