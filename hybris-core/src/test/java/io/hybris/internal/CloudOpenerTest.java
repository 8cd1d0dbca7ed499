/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CloudSpec;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Clouds created from a type start in parallel; a failed start closes the others and names its cause. */
class CloudOpenerTest {

    /**
     * Type {@code rendezvous}: {@code create} waits until every cloud of the test is being created at the same
     * time (a barrier of {@link #parties}), so it can only succeed if the creations run in parallel; option
     * {@code fail=true} makes it fail after the rendezvous, {@code error=true} throw an Error.
     */
    public static final class RendezvousProvider implements CloudStoreProvider {
        static volatile CyclicBarrier barrier;
        static final Set<String> closed = ConcurrentHashMap.newKeySet();

        @Override
        public String type() {
            return "rendezvous";
        }

        @Override
        public Set<String> optionNames() {
            return Set.of("fail", "error");
        }

        @Override
        public CloudStore create(String cloudId, ProviderOptions options) {
            try {
                barrier.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException(cloudId + " was not created alongside the other clouds", e);
            }
            if (options.bool("error", false)) { // a driver whose dependency is missing from the class path
                throw new NoClassDefFoundError("a class of cloud " + cloudId + "'s driver (test)");
            }
            if (options.bool("fail", false)) {
                throw new HybrisConfigurationException("cloud " + cloudId + " refused to start (test)");
            }
            return closingStore(new InMemoryCloudStore(cloudId));
        }
    }

    /** An in-memory cloud that records its closing instead of closing. */
    private static CloudStore closingStore(CloudStore delegate) {
        return (CloudStore) Proxy.newProxyInstance(CloudStore.class.getClassLoader(), new Class<?>[] {CloudStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        RendezvousProvider.closed.add(delegate.id());
                        return null;
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @AfterEach
    void reset() {
        RendezvousProvider.closed.clear();
    }

    private static CloudSpec rendezvous(String id, boolean fail) {
        return CloudSpec.of(id, "rendezvous", fail ? Map.of("fail", "true") : Map.of());
    }

    @Test
    void cloudsCreatedFromATypeStartAtTheSameTimeAndKeepTheirOrder() {
        RendezvousProvider.barrier = new CyclicBarrier(3);
        CloudStore given = new InMemoryCloudStore("given");

        List<CloudStore> clouds = new CloudOpener().open(List.of(rendezvous("a", false), CloudSpec.of(given),
                rendezvous("b", false), rendezvous("c", false)));

        assertThat(clouds).extracting(CloudStore::id).containsExactly("a", "given", "b", "c");
        assertThat(clouds.get(1)).isSameAs(given);
    }

    @Test
    void aFailedStartThrowsItsCauseAndLeavesTheOthersToBeClosed() {
        RendezvousProvider.barrier = new CyclicBarrier(3);
        CloudOpener opener = new CloudOpener();

        assertThatThrownBy(() -> opener.open(List.of(rendezvous("a", false), rendezvous("b", true),
                rendezvous("c", false))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("cloud b refused to start");
        assertThat(opener.created()).extracting(CloudStore::id).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void openingAClientClosesTheCreatedCloudsWhenOneFails() {
        RendezvousProvider.barrier = new CyclicBarrier(3);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .probeInterval(Duration.ZERO)
                .cloud("a", "rendezvous", Map.of()).cloud("b", "rendezvous", Map.of("fail", "true"))
                .cloud("c", "rendezvous", Map.of());

        assertThatThrownBy(() -> Hybris.open(b.build())).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("cloud b refused to start");
        assertThat(RendezvousProvider.closed).containsExactlyInAnyOrder("a", "c");
    }

    /**
     * A cloud whose start throws an Error (its driver misses a class): the Error reaches the caller, and the clouds
     * the other starts created are closed (found by the lifecycle hunt: the Error was thrown at once and neither
     * the cloud created before it nor the one created after it was closed).
     */
    @Test
    void openingAClientClosesTheCreatedCloudsWhenOneThrowsAnError() {
        RendezvousProvider.barrier = new CyclicBarrier(3);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .probeInterval(Duration.ZERO)
                .cloud("a", "rendezvous", Map.of()).cloud("b", "rendezvous", Map.of("error", "true"))
                .cloud("c", "rendezvous", Map.of());

        assertThatThrownBy(() -> Hybris.open(b.build())).isInstanceOf(NoClassDefFoundError.class)
                .hasMessage("a class of cloud b's driver (test)");
        assertThat(RendezvousProvider.closed).containsExactlyInAnyOrder("a", "c");
    }

    @Test
    void aClientOpensWithParallelCloudStarts() {
        RendezvousProvider.barrier = new CyclicBarrier(3);
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .probeInterval(Duration.ZERO).cloud("a", "rendezvous", Map.of())
                .cloud("b", "rendezvous", Map.of()).cloud("c", "rendezvous", Map.of());

        try (Hybris h = Hybris.open(b.build())) {
            h.put("box", "k", new byte[] {1, 2, 3});
            assertThat(h.get("box", "k")).hasValue(new byte[] {1, 2, 3});
        }
        assertThat(RendezvousProvider.closed).containsExactlyInAnyOrder("a", "b", "c");
    }
}
