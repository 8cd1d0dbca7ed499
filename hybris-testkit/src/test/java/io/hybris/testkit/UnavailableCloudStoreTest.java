/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnavailableCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final UnavailableCloudStore down = UnavailableCloudStore.of(mem);

    @Test
    void everyOperationFailsTransientlyWithoutReachingTheCloud() {
        mem.put("k#1_abc", bytes("v"));

        assertThatThrownBy(() -> down.put("new#1_abc", bytes("x"))).isInstanceOfSatisfying(
                TransientCloudException.class, e -> assertThat(e.cloudId()).isEqualTo("c1"))
                .hasMessageContaining("unavailable (injected fault)").hasMessageContaining("new#1_abc");
        assertThatThrownBy(() -> down.get("k#1_abc", 10)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("unavailable (injected fault)");
        assertThatThrownBy(() -> down.list("k")).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("unavailable (injected fault)");
        assertThatThrownBy(() -> down.delete("k#1_abc")).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("unavailable (injected fault)");

        assertThat(down.id()).isEqualTo("c1");
        assertThat(mem.get("new#1_abc", 10)).isEmpty();
        assertThat(mem.get("k#1_abc", 10)).isPresent();
    }

    @Test
    void switchingTheFaultOffRestoresService() {
        down.setActive(false);

        assertThat(down.isActive()).isFalse();
        down.put("k#1_abc", bytes("v"));
        assertThat(down.get("k#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("v")));
        assertThat(down.list("k")).hasSize(1);
        down.delete("k#1_abc");
        assertThat(mem.list("")).isEmpty();

        down.setActive(true);
        assertThatThrownBy(() -> down.list("")).isInstanceOf(TransientCloudException.class);
    }
}
