/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CloudStatus;
import io.hybris.Hybris;
import io.hybris.ReadSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.hybris.testkit.StreamingFixture.C;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An oversized answer (more bytes than the version has, the paper's "big file" attack) is a failed hash check as
 * much as a corrupt one: it counts toward quarantine (docs/protocol.md, "corrupt, stale or oversized answers are a
 * fault"), so a cloud that keeps sending them is asked last even after a probe replaced its failure penalty.
 */
class OversizedAnswersQuarantineTest {
    private OversizedCloudStore big;
    /** c0 is the fastest whatever the machine's noise: c1 answers reads after 20 ms, c2 everything after 40 ms. */
    private final StreamingFixture fx = new StreamingFixture(c -> switch (c.id()) {
        case "c0" -> big = OversizedCloudStore.of(c, 1000);
        case "c1" -> SlowCloudStore.ofGets(c, Duration.ofMillis(20));
        default -> SlowCloudStore.of(c, Duration.ofMillis(40));
    });

    @AfterEach
    void close() {
        fx.close();
    }

    private List<String> gets() {
        List<String> asked = fx.recorded.stream().flatMap(r -> r.calls().stream()
                .filter(call -> call.op() == RecordingCloudStore.Op.GET && call.objectKey().contains("/k#"))
                .map(call -> r.id())).toList();
        fx.resetCalls();
        return asked;
    }

    @Test
    void aCloudThatKeepsAnsweringOversizedIsQuarantined() {
        big.setActive(false);
        Hybris h = fx.open(b -> b.reads(ReadSettings.builder().hedge(false).quarantineAfter(2).build()));
        byte[] v = StreamingFixture.value(100, 1);
        h.put(C, "k", v);
        big.setActive(true);
        fx.resetCalls();

        assertThat(h.get(C, "k")).hasValue(v);
        assertThat(gets()).as("oversized from c0, then c1").containsExactly("c0", "c1");

        big.setActive(false);
        h.refreshLatencyRanking(); // c0 answers its probe: its failure penalty is replaced by a fast estimate
        big.setActive(true);
        fx.resetCalls();
        assertThat(h.get(C, "k")).hasValue(v);
        assertThat(gets()).as("a penalty alone lets c0 be asked first again").containsExactly("c0", "c1");
        assertThat(status(h, "c0").quarantined()).as("two oversized answers: quarantined").isPresent();

        big.setActive(false);
        h.refreshLatencyRanking();
        fx.resetCalls();
        assertThat(h.get(C, "k")).hasValue(v);
        assertThat(gets()).as("quarantined: asked last, although it is fast again").containsExactly("c1");
    }

    private static CloudStatus status(Hybris h, String id) {
        return h.cloudStatus().stream().filter(s -> s.cloudId().equals(id)).findFirst().orElseThrow();
    }
}
