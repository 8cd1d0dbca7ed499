/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ForwardingCloudStoreTest {
    /** Records which methods reached it, and answers with fixed values. */
    private static final class Probe implements CloudStore {
        final List<String> calls = new ArrayList<>();

        @Override
        public String id() {
            return "probe";
        }

        @Override
        public void put(String objectKey, byte[] value) {
            calls.add("put " + objectKey + " " + value.length);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            calls.add("get " + objectKey + " " + maxBytes);
            return Optional.of(bytes("answer"));
        }

        @Override
        public List<CloudObject> list(String prefix) {
            calls.add("list " + prefix);
            return List.of(new CloudObject(prefix + "x", 3, java.time.Instant.EPOCH));
        }

        @Override
        public void delete(String objectKey) {
            calls.add("delete " + objectKey);
        }

        @Override
        public void close() {
            calls.add("close");
        }

        @Override
        public String toString() {
            return "Probe";
        }
    }

    @Test
    void forwardsEveryOperationWithItsArgumentsAndResults() {
        Probe probe = new Probe();
        ForwardingCloudStore forwarding = new ForwardingCloudStore(probe) {
        };

        forwarding.put("a", new byte[5]);
        assertThat(forwarding.get("b", 77)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("answer")));
        assertThat(forwarding.list("c/")).containsExactly(new CloudObject("c/x", 3, java.time.Instant.EPOCH));
        forwarding.delete("d");
        forwarding.close();

        assertThat(forwarding.id()).isEqualTo("probe");
        assertThat(forwarding.delegate()).isSameAs(probe);
        assertThat(probe.calls).containsExactly("put a 5", "get b 77", "list c/", "delete d", "close");
        assertThat(forwarding.toString()).contains("Probe");
    }

    @Test
    void closeOfADecoratorClosesTheStoreBelow() {
        Probe probe = new Probe();
        CorruptingCloudStore.of(SlowCloudStore.ofGets(probe, java.time.Duration.ofSeconds(1))).close();

        assertThat(probe.calls).containsExactly("close");
    }

    @Test
    void rejectsANullDelegate() {
        assertThatThrownBy(() -> new ForwardingCloudStore(null) {
        }).isInstanceOf(NullPointerException.class).hasMessageContaining("delegate");
        assertThatThrownBy(() -> CorruptingCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> StaleCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> UnavailableCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> EventuallyConsistentCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RecordingCloudStore.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> OversizedCloudStore.of(null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> SlowCloudStore.of(null, java.time.Duration.ZERO))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> GatedCloudStore.of(null, k -> true)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> GatedCloudStore.of(new InMemoryCloudStore("m"), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("objectKeyMatcher");
    }
}
