/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;

import static io.hybris.testkit.TestBytes.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class ClockFollowingCloudStoreTest {
    private final InMemoryCloudStore mem = new InMemoryCloudStore("c1");
    private final MutableClock clock = new MutableClock();
    private final ClockFollowingCloudStore cloud = ClockFollowingCloudStore.of(mem, clock);

    private Map<String, Instant> listed(String prefix) {
        return cloud.list(prefix).stream().collect(Collectors.toMap(CloudObject::key, CloudObject::lastModified));
    }

    private Instant recorded(String key) {
        return mem.list(key).stream().filter(o -> o.key().equals(key)).findFirst().orElseThrow().lastModified();
    }

    @Test
    void objectsWrittenAfterTheClockMovedAreListedThatMuchLater() {
        cloud.put("a/before", bytes("1"));
        mem.put("a/direct", bytes("2"));
        clock.advance(Duration.ofMinutes(11));
        cloud.put("a/after", bytes("3"));
        clock.advance(Duration.ofMinutes(2));

        Map<String, Instant> listed = listed("a/");
        assertThat(listed.get("a/before")).isEqualTo(recorded("a/before"));
        assertThat(listed.get("a/direct")).isEqualTo(recorded("a/direct"));
        assertThat(listed.get("a/after")).isEqualTo(recorded("a/after").plus(Duration.ofMinutes(11)));
        assertThat(clock.advanced()).isEqualTo(Duration.ofMinutes(13));
    }

    @Test
    void anOverwriteTakesTheClockOfItsTimeAndADeletionForgetsIt() {
        cloud.put("k", bytes("1"));
        clock.advance(Duration.ofMinutes(5));
        cloud.put("k", bytes("2"));
        assertThat(listed("k").get("k")).isEqualTo(recorded("k").plus(Duration.ofMinutes(5)));

        cloud.delete("k");
        mem.put("k", bytes("3"));
        assertThat(listed("k").get("k")).isEqualTo(recorded("k"));
        assertThat(cloud.get("k", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("3")));
    }
}
