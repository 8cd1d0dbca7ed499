/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CloudStatus;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.RecordingCloudStore.Op;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The latency ranking follows clouds that go down and come back: a failed cloud sinks, PUTs complete on the
 * others, and the background probe sees it recover so the ranking (and the traffic) return to it.
 */
class LatencyProbeTest {
    private static final String VALUES = "hybris/box/";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final UnavailableCloudStore fastSwitch = UnavailableCloudStore.of(new InMemoryCloudStore("c0"));
    private final RecordingCloudStore fast = RecordingCloudStore.of(fastSwitch);
    private final RecordingCloudStore medium =
            RecordingCloudStore.of(SlowCloudStore.of(new InMemoryCloudStore("c1"), Duration.ofMillis(20)));
    private final RecordingCloudStore slow =
            RecordingCloudStore.of(SlowCloudStore.of(new InMemoryCloudStore("c2"), Duration.ofMillis(60)));
    private Hybris hybris;

    LatencyProbeTest() {
        fastSwitch.setActive(false); // decorators start active: this cloud starts up
    }

    @AfterEach
    void close() {
        if (hybris != null) {
            hybris.close();
        }
    }

    private HybrisConfig.Builder config() {
        return HybrisConfig.builder().f(1).metadataStore(metadata).cloud(fast).cloud(medium).cloud(slow)
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(200))
                .timerInitial(Duration.ofMillis(400));
    }

    @Test
    void aCloudThatFailedIsProbedAndRegainsItsRankWhenItRecovers() {
        hybris = Hybris.open(config().probeInterval(Duration.ofMillis(300)).build());
        assertThat(hybris.refreshLatencyRanking()).isEqualTo(3);

        hybris.put("box", "k", bytes("v1"));
        assertThat(fast.count(Op.PUT, VALUES)).isEqualTo(1);
        assertThat(medium.count(Op.PUT, VALUES)).isEqualTo(1);
        assertThat(slow.count(Op.PUT, VALUES)).isZero();

        fastSwitch.setActive(true);
        hybris.put("box", "k", bytes("v2"));
        assertThat(slow.count(Op.PUT, VALUES)).as("the third cloud replaces the failed one").isEqualTo(1);
        assertThat(bytesOf(hybris.get("box", "k").orElseThrow())).isEqualTo("v2");
        long fastPutsWhileDown = fast.count(Op.PUT, VALUES);
        hybris.put("box", "k", bytes("v3"));
        assertThat(fast.count(Op.PUT, VALUES)).as("a failed cloud ranks last").isEqualTo(fastPutsWhileDown);
        assertThat(slow.count(Op.PUT, VALUES)).isEqualTo(2);

        fastSwitch.setActive(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> fast.count(Op.PUT, "hybris/.probe/") > 0);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            long slowBefore = slow.count(Op.PUT, VALUES);
            long fastBefore = fast.count(Op.PUT, VALUES);
            hybris.put("box", "k", bytes("v4"));
            assertThat(fast.count(Op.PUT, VALUES)).isEqualTo(fastBefore + 1);
            assertThat(slow.count(Op.PUT, VALUES)).isEqualTo(slowBefore);
        });
        long fastGets = fast.count(Op.GET, VALUES);
        long otherGets = medium.count(Op.GET, VALUES) + slow.count(Op.GET, VALUES);
        assertThat(bytesOf(hybris.get("box", "k").orElseThrow())).isEqualTo("v4");
        assertThat(fast.count(Op.GET, VALUES)).as("GETs go to the fastest cloud again").isEqualTo(fastGets + 1);
        assertThat(medium.count(Op.GET, VALUES) + slow.count(Op.GET, VALUES)).isEqualTo(otherGets);
        await().atMost(Duration.ofSeconds(20)).until(() -> fast.list("hybris/.probe/").isEmpty());
    }

    @Test
    void cloudStatusShowsRanksEstimatesAndTheLatestErrorOfEachCloud() {
        hybris = Hybris.open(config().probeInterval(Duration.ZERO).build());
        assertThat(hybris.cloudStatus()).extracting(CloudStatus::cloudId).containsExactly("c0", "c1", "c2");
        assertThat(hybris.cloudStatus()).allSatisfy(s -> {
            assertThat(s.readLatency()).as("nothing observed yet").isEmpty();
            assertThat(s.errors()).isZero();
            assertThat(s.lastError()).isEmpty();
        });

        hybris.refreshLatencyRanking();
        List<CloudStatus> measured = hybris.cloudStatus();
        assertThat(measured).extracting(CloudStatus::rank).containsExactly(1, 2, 3);
        assertThat(measured).extracting(CloudStatus::cloudId).containsExactly("c0", "c1", "c2");
        assertThat(measured).allSatisfy(s -> {
            assertThat(s.readLatency()).isPresent();
            assertThat(s.writeLatency()).isPresent();
            assertThat(s.failing()).isFalse();
        });
        assertThat(measured.get(2).readLatency().orElseThrow()).isGreaterThanOrEqualTo(Duration.ofMillis(60));

        fastSwitch.setActive(true);
        Instant before = Instant.now();
        hybris.refreshLatencyRanking();
        List<CloudStatus> down = hybris.cloudStatus();
        CloudStatus c0 = down.stream().filter(s -> s.cloudId().equals("c0")).findFirst().orElseThrow();
        assertThat(c0.failing()).isTrue();
        assertThat(c0.writeLatency().orElseThrow()).as("the failure penalty: twice the timer")
                .isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(c0.errors()).isPositive();
        assertThat(c0.lastError()).hasValueSatisfying(e -> assertThat(e).contains("write").contains("unavailable")
                .doesNotContain("\n"));
        assertThat(c0.lastErrorAt()).hasValueSatisfying(t -> assertThat(t).isAfterOrEqualTo(before));
        assertThat(down).filteredOn(s -> !s.cloudId().equals("c0")).allSatisfy(s -> {
            assertThat(s.errors()).isZero();
            assertThat(s.failing()).isFalse();
        });

        fastSwitch.setActive(false);
        hybris.refreshLatencyRanking();
        CloudStatus recovered = hybris.cloudStatus().get(0);
        assertThat(recovered.cloudId()).as("measured again, it regains its rank").isEqualTo("c0");
        assertThat(recovered.failing()).isFalse();
        assertThat(recovered.errors()).as("the error count is history").isEqualTo(c0.errors());
    }

    @Test
    void withoutProbesAFailedCloudStaysRankedLast() {
        hybris = Hybris.open(config().probeInterval(Duration.ZERO).build());
        hybris.refreshLatencyRanking();
        fastSwitch.setActive(true);
        hybris.put("box", "k", bytes("v1"));
        fastSwitch.setActive(false);

        for (int i = 0; i < 5; i++) {
            hybris.put("box", "k", bytes("v" + i));
        }

        assertThat(fast.count(Op.PUT, VALUES)).isEqualTo(1);
        assertThat(slow.count(Op.PUT, VALUES)).isEqualTo(6);
        assertThat(fast.count(Op.PUT, "hybris/.probe/")).as("the two samples of the one refresh").isEqualTo(2);
    }

    @Test
    void probeOnOpenRanksCloudsBeforeTheFirstRead() {
        // configured slowest first: without measurements a read would go to the slow cloud
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(metadata).cloud(slow).cloud(medium).cloud(fast)
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(200))
                .timerInitial(Duration.ofMillis(400)).probeInterval(Duration.ZERO).probeOnOpen(true).build());
        // measured while opening, before open returned
        assertThat(List.of(slow, medium, fast)).allSatisfy(c -> assertThat(c.count(Op.GET, "hybris/.probe/"))
                .isEqualTo(2));

        hybris.put("box", "k", bytes("v"));
        assertThat(bytesOf(hybris.get("box", "k").orElseThrow())).isEqualTo("v");

        assertThat(fast.count(Op.GET, VALUES)).as("the read goes to the fastest cloud").isEqualTo(1);
        assertThat(slow.count(Op.PUT, VALUES)).as("the writes to the two fastest").isZero();
    }

    @Test
    void negativeProbeIntervalIsRejected() {
        assertThatThrownBy(() -> Hybris.open(config().probeInterval(Duration.ofSeconds(-1)).build()))
                .hasMessageContaining("hybris.ranking.probe-interval");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String bytesOf(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
