/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CloudStatus;
import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The decisions of hedged reads and quarantine (performance issue, item 3), asserted by which clouds each call
 * contacted and in which order, never by how long it took. Cloud c0 is fast (in memory); c1 answers reads after
 * 20 ms and c2 everything after 40 ms, so the ranking's order is c0, c1, c2 whatever the machine's noise. The
 * paper's timer is 30 s here, so any second request within a call is the hedge's or the hash check's doing.
 */
class HedgeAndQuarantineTest {
    private static final byte[] V1 = "version one".getBytes(StandardCharsets.UTF_8);
    private static final byte[] V2 = "version two, a little longer".getBytes(StandardCharsets.UTF_8);

    /** Every GET and PUT of a value object, in the order the clouds received them, as "c0 GET". */
    private final CallLog contacts = new CallLog("hybris/box/");
    private final List<String> quarantined = new ArrayList<>();
    /** The outcomes of c0's GETs of value objects, in the order the listener saw them end. */
    private final List<HybrisListener.Outcome> c0Gets = new CopyOnWriteArrayList<>();
    private final SlowCloudStore hang0 = SlowCloudStore.ofGets(new InMemoryCloudStore("c0"), Duration.ofHours(1));
    private final StaleCloudStore stale0 = StaleCloudStore.of(hang0);
    private final CloudStore c0 = contacts.wrap(stale0);
    private final CloudStore c1 =
            contacts.wrap(SlowCloudStore.ofGets(new InMemoryCloudStore("c1"), Duration.ofMillis(20)));
    private final CloudStore c2 =
            contacts.wrap(SlowCloudStore.of(new InMemoryCloudStore("c2"), Duration.ofMillis(40)));
    private Hybris hybris;

    HedgeAndQuarantineTest() {
        hang0.setActive(false); // decorators start active: c0 starts healthy
        stale0.setActive(false);
    }

    @AfterEach
    void close() {
        hang0.setActive(false); // releases a request a hedge left behind
        if (hybris != null) {
            hybris.close();
        }
    }

    private Hybris open(ReadSettings reads, Duration deadline) {
        HybrisListener events = new HybrisListener() {
            @Override
            public void cloudQuarantined(String cloudId, int failures, Duration duration) {
                synchronized (quarantined) {
                    quarantined.add(cloudId + " after " + failures);
                }
            }

            @Override
            public void cloudRequest(CloudRequest request) {
                if (request.cloudId().equals("c0") && request.operation() == CloudOperation.GET
                        && request.objectKey().startsWith("hybris/box/")) {
                    c0Gets.add(request.outcome());
                }
            }
        };
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(c0).cloud(c1).cloud(c2).deadline(deadline).timerMin(Duration.ofSeconds(30))
                .timerInitial(Duration.ofSeconds(30)).probeInterval(Duration.ZERO).gcEnabled(false)
                .reads(reads).listener(events).build());
        return hybris;
    }

    private List<String> contacts() {
        return contacts.drain(c -> c.cloudId() + " " + c.op());
    }

    /** Enough reads of c0 for its p95 to be known (hedging needs 16). */
    private void warmUp(Hybris h) {
        for (int i = 0; i < 20; i++) {
            assertThat(h.get("box", "k")).hasValue(V1);
        }
        assertThat(contacts()).as("the fastest cloud serves every warm-up read").containsOnly("c0 GET");
    }

    @Test
    void aHedgedGetAsksTheNextCloudWhileTheFastestHangsAndTheHangingCloudSinks() {
        Hybris h = open(ReadSettings.builder().hedge(true).hedgeMinDelay(Duration.ofMillis(5)).build(),
                Duration.ofSeconds(20));
        h.put("box", "k", V1);
        assertThat(contacts()).containsExactlyInAnyOrder("c0 PUT", "c1 PUT");
        warmUp(h);

        hang0.setActive(true);
        assertThat(h.get("box", "k")).hasValue(V1);
        assertThat(contacts()).as("hedged after c0's p95, not the 30 s timer").containsExactly("c0 GET", "c1 GET");

        // left behind three times in a row (no answer in between) counts as a failure: then straight to c1
        List<List<String>> later = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            assertThat(h.get("box", "k")).hasValue(V1);
            later.add(contacts());
        }
        assertThat(later).containsExactly(List.of("c0 GET", "c1 GET"), List.of("c0 GET", "c1 GET"),
                List.of("c1 GET"));
    }

    @Test
    void withoutHedgingAGetWaitsForTheTimerOfTheHangingCloud() {
        Hybris h = open(ReadSettings.builder().hedge(false).build(), Duration.ofSeconds(2));
        h.put("box", "k", V1);
        contacts();
        warmUp(h);

        hang0.setActive(true);
        c0Gets.clear();
        assertThatThrownBy(() -> h.get("box", "k")).isInstanceOf(DeadlineExceededException.class);
        assertThat(contacts()).as("the paper's 30 s timer never expired").containsExactly("c0 GET");
        // the hanging request does not outlive the GET (it would hold an I/O thread for the hour c0 hangs)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(c0Gets)
                .containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.ERROR));
    }

    @Test
    void aCloudThatKeepsFailingHashChecksIsQuarantinedAndAskedLastDespiteItsLatency() {
        Hybris h = open(ReadSettings.builder().hedge(false).quarantineAfter(2).build(), Duration.ofSeconds(20));
        h.put("box", "k", V1);
        h.put("box", "k", V2); // with GC off c0 keeps version one: stale, it serves that for version two
        assertThat(contacts()).containsExactlyInAnyOrder("c0 PUT", "c1 PUT", "c0 PUT", "c1 PUT");

        stale0.setActive(true);
        assertThat(h.get("box", "k")).hasValue(V2);
        assertThat(contacts()).containsExactly("c0 GET", "c1 GET");
        assertThat(quarantined).isEmpty();

        h.refreshLatencyRanking(); // c0 answers its probe: the failure penalty is replaced by a fast estimate
        contacts();
        assertThat(h.get("box", "k")).hasValue(V2);
        assertThat(contacts()).as("a penalty alone lets the stale cloud be asked first again")
                .containsExactly("c0 GET", "c1 GET");
        assertThat(quarantined).containsExactly("c0 after 2");

        h.refreshLatencyRanking();
        contacts();
        assertThat(h.get("box", "k")).hasValue(V2);
        assertThat(contacts()).as("quarantined: asked last although it is the fastest").containsExactly("c1 GET");
        CloudStatus status0 = h.cloudStatus().stream().filter(s -> s.cloudId().equals("c0")).findFirst()
                .orElseThrow();
        assertThat(status0.rank()).isEqualTo(3);
        assertThat(status0.quarantined()).hasValueSatisfying(d -> assertThat(d).isPositive());

        h.put("box", "k2", V1);
        assertThat(contacts()).as("writes ask it last too").containsExactlyInAnyOrder("c1 PUT", "c2 PUT");
    }

    @Test
    void withQuarantineOffTheStaleCloudIsAskedFirstAfterEveryProbe() {
        Hybris h = open(ReadSettings.builder().hedge(false).quarantineAfter(0).build(), Duration.ofSeconds(20));
        h.put("box", "k", V1);
        h.put("box", "k", V2);
        stale0.setActive(true);
        for (int i = 0; i < 3; i++) {
            h.refreshLatencyRanking();
            contacts();
            assertThat(h.get("box", "k")).hasValue(V2);
            assertThat(contacts()).containsExactly("c0 GET", "c1 GET");
        }
        assertThat(quarantined).isEmpty();
        assertThat(h.cloudStatus()).allSatisfy(s -> assertThat(s.quarantined()).isEqualTo(Optional.empty()));
    }
}
