/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.e2e;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.EmulatedClouds.Kind;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.RecordingCloudStore.Op;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 3's end-to-end scenario: Hybris with f=1 over MinIO, Azurite and fake-gcs-server, each behind a toxiproxy
 * proxy that adds 10, 200 and 500 ms to every response. The gaps are wide because the emulators' own times vary
 * (MinIO syncs each object to disk; an upload with {@code Expect: 100-continue} waits for two responses) and a
 * loaded machine adds spikes of a few hundred milliseconds: the ranking must not flip on noise. The
 * latency ranking sends GETs to the fastest cloud and PUTs to the two
 * fastest (asserted by per-cloud operation counts); cutting the fastest cloud's proxy mid-run makes PUTs complete
 * via the third cloud and GETs fall back; restoring it brings the traffic back once the probe re-measures it. A cloud
 * slowed for a few writes (no failure) loses them to the third cloud and gets them back at its recheck, within
 * seconds, with the periodic probe minutes away.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LatencyRankingOverEmulatorsTest {
    private static final String VALUES = "hybris/box/";
    private static final Duration AWAIT = Duration.ofSeconds(60);

    private EmulatedClouds clouds;
    private Map<Kind, Toxiproxy.Proxy> proxies;
    private RecordingCloudStore s3;
    private RecordingCloudStore azure;
    private RecordingCloudStore gcs;
    private Hybris hybris;

    @BeforeEach
    void setUp() {
        clouds = new EmulatedClouds(TestEnvironment.require());
        proxies = new HashMap<>();
        for (Kind kind : Kind.values()) {
            proxies.put(kind, clouds.proxy(kind));
        }
        proxies.get(Kind.S3).latency(Duration.ofMillis(10));
        proxies.get(Kind.AZURE).latency(Duration.ofMillis(200));
        proxies.get(Kind.GCS).latency(Duration.ofMillis(500));
        String prefix = "ranking-" + UUID.randomUUID() + "/";
        s3 = RecordingCloudStore.of(clouds.store("s3", Kind.S3, prefix));
        azure = RecordingCloudStore.of(clouds.store("azure", Kind.AZURE, prefix));
        gcs = RecordingCloudStore.of(clouds.store("gcs", Kind.GCS, prefix));
    }

    @AfterEach
    void tearDown() {
        if (hybris != null) {
            hybris.close();
        }
        proxies.values().forEach(Toxiproxy.Proxy::reset);
        for (RecordingCloudStore store : List.of(s3, azure, gcs)) {
            store.close();
        }
    }

    private Hybris open(Duration probeInterval) {
        // listed slowest first, so only measurement (not configuration order) can put S3 first
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(gcs).cloud(azure).cloud(s3)
                .deadline(Duration.ofSeconds(30)).timerMin(Duration.ofMillis(2500))
                .probeInterval(probeInterval).build());
        return hybris;
    }

    @Test
    void getsGoToTheFastestCloudAndPutsToTheTwoFastest() {
        Hybris h = open(Duration.ZERO);
        assertThat(h.refreshLatencyRanking()).isEqualTo(3);
        resetCounts();

        for (int i = 0; i < 5; i++) {
            h.put("box", "k" + i, value("v" + i));
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5; i++) {
                assertThat(h.get("box", "k" + i)).hasValue(value("v" + i));
            }
        }

        assertThat(s3.count(Op.PUT, VALUES)).as("PUTs on the fastest cloud").isEqualTo(5);
        assertThat(azure.count(Op.PUT, VALUES)).as("PUTs on the second fastest").isEqualTo(5);
        assertThat(gcs.count(Op.PUT, VALUES)).as("PUTs on the slowest").isZero();
        assertThat(s3.count(Op.GET, VALUES)).as("GETs on the fastest cloud").isEqualTo(10);
        assertThat(azure.count(Op.GET, VALUES) + gcs.count(Op.GET, VALUES)).as("GETs elsewhere").isZero();
    }

    @Test
    void cuttingTheFastestCloudMovesTrafficAndRestoringItBringsItBack() {
        Hybris h = open(Duration.ofMillis(600));
        h.refreshLatencyRanking();
        h.put("box", "k", value("before"));
        assertThat(s3.count(Op.PUT, VALUES)).isEqualTo(1);
        assertThat(gcs.count(Op.PUT, VALUES)).isZero();

        proxies.get(Kind.S3).disable();
        resetCounts();

        assertThat(h.get("box", "k")).as("GET falls back").hasValue(value("before"));
        assertThat(s3.count(Op.GET, VALUES)).as("the fastest cloud was tried first").isEqualTo(1);
        assertThat(azure.count(Op.GET, VALUES)).as("and the next cloud answered").isEqualTo(1);
        h.put("box", "k", value("during"));
        assertThat(gcs.count(Op.PUT, VALUES)).as("the PUT completed via the third cloud").isEqualTo(1);
        assertThat(azure.count(Op.PUT, VALUES)).isEqualTo(1);
        assertThat(h.describe("box", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("azure", "gcs");
        assertThat(h.get("box", "k")).hasValue(value("during"));

        proxies.get(Kind.S3).enable();

        await().atMost(AWAIT).untilAsserted(() -> {
            long before = s3.count(Op.PUT, VALUES);
            h.put("box", "k", value("after"));
            assertThat(s3.count(Op.PUT, VALUES)).as("PUTs return to the recovered fastest cloud")
                    .isEqualTo(before + 1);
        });
        assertThat(h.describe("box", "k").orElseThrow().clouds()).contains("s3");
        long s3Gets = s3.count(Op.GET, VALUES);
        assertThat(h.get("box", "k")).hasValue(value("after"));
        assertThat(s3.count(Op.GET, VALUES)).as("GETs return to it too").isEqualTo(s3Gets + 1);
    }

    @Test
    void aCloudThatSlowedForAFewWritesGetsThemBackAtItsRecheckNotAfterAProbeInterval() {
        Hybris h = open(Duration.ofMinutes(5));
        h.refreshLatencyRanking();
        for (int i = 0; i < 3; i++) {
            h.put("box", "k", value("warm" + i));
        }
        assertThat(h.describe("box", "k").orElseThrow().clouds()).containsExactlyInAnyOrder("s3", "azure");

        // slow answers in a row (below the 2.5 s timer: no failure) move Azure's median, then its average, behind GCS
        proxies.get(Kind.AZURE).latency(Duration.ofMillis(1500));
        for (int i = 0; i < 4; i++) {
            h.put("box", "k", value("slow" + i));
        }
        proxies.get(Kind.AZURE).latency(Duration.ofMillis(200));
        resetCounts();
        h.put("box", "k", value("moved"));
        assertThat(gcs.count(Op.PUT, VALUES)).as("the writes went to the third cloud: %s", h.cloudStatus())
                .isEqualTo(1);
        assertThat(azure.count(Op.PUT, VALUES)).isZero();

        // Azure gets no traffic now, so only a probe can see it is fast again: its recheck, 15 s after its last
        // measurement (the periodic probe would come 5 minutes later)
        long restored = System.nanoTime();
        await().atMost(AWAIT).untilAsserted(() -> {
            long before = azure.count(Op.PUT, VALUES);
            h.put("box", "k", value("after"));
            assertThat(azure.count(Op.PUT, VALUES)).as("writes return to Azure").isEqualTo(before + 1);
        });
        assertThat(Duration.ofNanos(System.nanoTime() - restored)).isLessThan(Duration.ofSeconds(45));
        assertThat(azure.count(Op.PUT, ".probe/")).as("a probe measured Azure again").isPositive();
    }

    @Test
    void hybrisConfiguredPurelyByPropertiesRunsOverTheThreeEmulators() {
        String prefix = "properties-" + UUID.randomUUID() + "/";
        Map<String, String> p = new HashMap<>(clouds.hybrisProperties(prefix));
        p.put("hybris.f", "1");
        p.put("hybris.rmds.type", "memory");
        try (Hybris h = Hybris.open(HybrisConfig.fromMap(p, Map.of()))) {
            byte[] big = new byte[3 << 20];
            new java.util.Random(3).nextBytes(big);
            h.put("box", "big", big);
            assertThat(h.get("box", "big")).hasValueSatisfying(v -> assertThat(v).isEqualTo(big));
            assertThat(h.describe("box", "big").orElseThrow().clouds()).hasSize(2);
            h.delete("box", "big");
            assertThat(h.get("box", "big")).isEmpty();
        }
    }

    private void resetCounts() {
        s3.reset();
        azure.reset();
        gcs.reset();
    }

    private static byte[] value(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
