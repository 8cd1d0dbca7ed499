/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.OversizedObjectException;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CorruptingCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final CorruptingCloudStore corrupting = CorruptingCloudStore.of(mem);

    @Test
    void getReturnsBytesOfTheSameLengthThatDifferAtEveryPosition() {
        byte[] value = new byte[4096];
        new Random(1).nextBytes(value);
        corrupting.put("k#1_abc", value);

        byte[] read = corrupting.get("k#1_abc", value.length).orElseThrow();

        assertThat(corrupting.isActive()).isTrue();
        assertThat(read).hasSameSizeAs(value);
        for (int i = 0; i < value.length; i++) {
            assertThat(read[i]).as("byte %d", i).isNotEqualTo(value[i]);
        }
    }

    @Test
    void anEmptyObjectIsServedAsOneGarbageByte() {
        corrupting.put("empty#1_abc", new byte[0]);

        assertThat(corrupting.get("empty#1_abc", 10)).hasValueSatisfying(v -> assertThat(v).hasSize(1));
        assertThatThrownBy(() -> corrupting.get("empty#1_abc", 0)).isInstanceOf(OversizedObjectException.class);
    }

    @Test
    void putListAndDeleteAreUntouched() {
        corrupting.put("k#1_abc", bytes("value"));

        assertThat(mem.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("value")));
        assertThat(corrupting.list("k")).extracting(CloudObject::key, CloudObject::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("k#1_abc", 5L));
        corrupting.delete("k#1_abc");
        assertThat(mem.get("k#1_abc", 100)).isEmpty();
        assertThat(corrupting.get("k#1_abc", 100)).isEmpty();
    }

    @Test
    void switchingTheFaultOffServesTheStoredBytesAndOnAgainCorrupts() {
        corrupting.put("k#1_abc", bytes("value"));

        corrupting.setActive(false);
        assertThat(corrupting.isActive()).isFalse();
        assertThat(corrupting.get("k#1_abc", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("value")));

        corrupting.setActive(true);
        assertThat(corrupting.get("k#1_abc", 100)).hasValueSatisfying(
                v -> assertThat(v).hasSize(5).isNotEqualTo(bytes("value")));
    }

    @Test
    void theByteLimitStillApplies() {
        corrupting.put("k#1_abc", bytes("value"));

        assertThatThrownBy(() -> corrupting.get("k#1_abc", 4)).isInstanceOf(OversizedObjectException.class);
    }
}
