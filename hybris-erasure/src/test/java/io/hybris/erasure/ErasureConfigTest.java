/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ErasurePolicy;
import io.hybris.HybrisConfigurationException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad erasure-coding configuration is rejected at build or open time with a message naming the key and the fix. */
class ErasureConfigTest {

    private static HybrisConfig.Builder threeClouds() {
        return HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(new InMemoryCloudStore("a")).cloud(new InMemoryCloudStore("b")).cloud(new InMemoryCloudStore("c"));
    }

    @Test
    void moreChunksThanCloudsIsRejected() {
        assertThatThrownBy(() -> threeClouds().erasurePolicy(ErasurePolicy.ERASURE).erasureDataChunks(3).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("erasure coding with hybris.erasure.k=3 and hybris.f=1 stores 4 chunks on as many clouds,"
                        + " but 3 are configured; lower hybris.erasure.k to at most 2 or add clouds");
        // the same k is fine while nothing is erasure-coded
        assertThat(threeClouds().erasureDataChunks(3).build().erasureCodingUsed()).isFalse();
        // and a per-container override counts as use
        assertThatThrownBy(() -> threeClouds().erasureDataChunks(3)
                .containerErasurePolicy("big", ErasurePolicy.THRESHOLD).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("stores 4 chunks");
    }

    @Test
    void kBelowOneAndTooManyChunksAreRejected() {
        assertThatThrownBy(() -> threeClouds().erasureDataChunks(0).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.erasure.k=0 must be at least 1 (data chunks per erasure-coded value)");
        assertThatThrownBy(() -> threeClouds().erasureDataChunks(256).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.erasure.k=256 + hybris.f=1 = 257 chunks, more than the 256 Reed-Solomon over"
                        + " GF(2^8) supports; lower hybris.erasure.k");
    }

    @Test
    void badPropertiesAreRejected() {
        Map<String, String> base = Map.of("hybris.rmds.type", "memory", "hybris.cloud.a.type", "memory",
                "hybris.cloud.b.type", "memory", "hybris.cloud.c.type", "memory");
        assertThatThrownBy(() -> HybrisConfig.fromMap(with(base, "hybris.erasure.policy", "stripes"), Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.erasure.policy=stripes is not a policy; use replication, erasure or threshold");
        assertThatThrownBy(() -> HybrisConfig.fromMap(with(base, "hybris.container.v.erasure.policy", "raid"),
                Map.of())).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageStartingWith("hybris.container.v.erasure.policy=raid is not a policy");
        assertThatThrownBy(() -> HybrisConfig.fromMap(with(base, "hybris.erasure.threshold", "-5"), Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.erasure.threshold");
        assertThatThrownBy(() -> HybrisConfig.fromMap(with(base, "hybris.container.v.erasure.k", "3"), Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("unknown configuration key hybris.container.v.erasure.k")
                .hasMessageContaining("hybris.container.<name>.erasure.policy");
    }

    @Test
    void anUnknownOrUnavailableCoderFailsAtOpen() {
        assertThatThrownBy(() -> Hybris.open(threeClouds().erasurePolicy(ErasurePolicy.ERASURE).erasureCoder("gpu").build()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageStartingWith("hybris.erasure.coder=gpu: no provider for type 'gpu' on the class path (available:");
        // an explicit coder is checked at open even while every container replicates
        assertThatThrownBy(() -> Hybris.open(threeClouds().erasureCoder("gpu").build()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageStartingWith("hybris.erasure.coder=gpu: no provider for type 'gpu'");
        if (Coders.provider("native").unavailableReason().isPresent()) {
            assertThatThrownBy(() -> Hybris.open(threeClouds().erasurePolicy(ErasurePolicy.ERASURE).erasureCoder("native").build()))
                    .isInstanceOf(HybrisConfigurationException.class)
                    .hasMessageStartingWith("hybris.erasure.coder=native is unavailable");
        } else {
            Hybris.open(threeClouds().erasurePolicy(ErasurePolicy.ERASURE).erasureCoder("native").build()).close();
        }
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> m = new java.util.HashMap<>(base);
        m.put(key, value);
        return m;
    }
}
