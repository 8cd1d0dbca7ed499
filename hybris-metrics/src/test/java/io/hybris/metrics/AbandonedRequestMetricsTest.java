/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.ReadSettings;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.EventRecorder;
import io.hybris.testkit.ForwardingCloudStore;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.RecordingCloudStore.Op;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A GET Hybris stops waiting for (another cloud answered first) is counted once as abandoned when Hybris gives it
 * up, and once more in the requests, the latency and the bytes when it really ends, with how it ended: the cloud
 * still served it (and bills it). c0 ranks first and holds its GETs; after the read timer c1 answers.
 */
class AbandonedRequestMetricsTest {
    private static final byte[] VALUE = "the value".getBytes(StandardCharsets.UTF_8);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventRecorder events = new EventRecorder();
    private final CountDownLatch release = new CountDownLatch(1);
    private final InMemoryCloudStore mem0 = new InMemoryCloudStore("c0");
    private Hybris hybris;

    @AfterEach
    void close() {
        release.countDown();
        if (hybris != null) {
            hybris.close();
        }
    }

    private RecordingCloudStore open(boolean honoursInterrupts) {
        RecordingCloudStore c0 = RecordingCloudStore.of(new HeldGets(mem0, honoursInterrupts));
        hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(c0).cloud(new InMemoryCloudStore("c1")).cloud(new InMemoryCloudStore("c2"))
                .timerInitial(Duration.ofMillis(100)).timerMin(Duration.ofMillis(100)).probeInterval(Duration.ZERO)
                .reads(ReadSettings.builder().speculate(false).hedge(false).build())
                .listener(HybrisListener.of(new HybrisMetrics(registry), events)).build());
        assertThat(hybris.put("box", "k", VALUE).clouds()).containsExactlyInAnyOrder("c0", "c1");
        return c0;
    }

    @Test
    void anAbandonedGetThatStillAnswersIsCountedWithItsRealOutcome() {
        RecordingCloudStore c0 = open(false);

        assertThat(hybris.get("box", "k")).hasValue(VALUE); // from c1, after c0's timer
        assertThat(c0.count(Op.GET)).isEqualTo(1);
        assertThat(abandoned()).as("given up once c1 answered").isEqualTo(1);
        assertThat(requests("c0", null)).as("still running").isZero();

        release.countDown(); // c0 answers after all, with the whole value
        await().atMost(10, TimeUnit.SECONDS).until(() -> requests("c0", null) == 1);
        assertThat(requests("c0", "ok")).isEqualTo(1);
        assertThat(abandoned()).as("not counted again").isEqualTo(1);
        assertThat(latencySamples()).isEqualTo(1);
        assertThat(bytesIn()).isEqualTo(VALUE.length);
        assertThat(c0Events()).containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.OK);
    }

    @Test
    void anAbandonedGetCutShortByItsInterruptIsCountedAsCancelled() {
        RecordingCloudStore c0 = open(true);

        assertThat(hybris.get("box", "k")).hasValue(VALUE);
        await().atMost(10, TimeUnit.SECONDS).until(() -> requests("c0", null) == 1);
        assertThat(c0.count(Op.GET)).isEqualTo(1);
        assertThat(requests("c0", "error")).isEqualTo(1);
        assertThat(errors("cancelled")).as("this client's doing, not the cloud's").isEqualTo(1);
        assertThat(errors(null)).isEqualTo(1);
        assertThat(abandoned()).isEqualTo(1);
        assertThat(latencySamples()).isEqualTo(1);
        assertThat(c0Events()).containsExactly(HybrisListener.Outcome.ABANDONED, HybrisListener.Outcome.ERROR);
        assertThat(hybris.cloudStatus()).allMatch(s -> s.quarantined().isEmpty());
    }

    private List<HybrisListener.Outcome> c0Events() {
        return events.events().stream().filter(e -> e.cloudId().equals("c0")
                && e.operation() == HybrisListener.CloudOperation.GET).map(EventRecorder.CloudEvent::outcome)
                .toList();
    }

    private long requests(String cloud, String outcome) {
        Search s = Search.in(registry).name(MetricNames.CLOUD_REQUESTS).tag(MetricNames.TAG_CLOUD, cloud)
                .tag(MetricNames.TAG_OP, "get");
        return sum(outcome == null ? s : s.tag(MetricNames.TAG_OUTCOME, outcome));
    }

    private long errors(String kind) {
        Search s = Search.in(registry).name(MetricNames.CLOUD_ERRORS).tag(MetricNames.TAG_CLOUD, "c0")
                .tag(MetricNames.TAG_OP, "get");
        return sum(kind == null ? s : s.tag(MetricNames.TAG_KIND, kind));
    }

    private long abandoned() {
        return sum(Search.in(registry).name(MetricNames.CLOUD_ABANDONED).tag(MetricNames.TAG_CLOUD, "c0"));
    }

    private long latencySamples() {
        return Search.in(registry).name(MetricNames.CLOUD_LATENCY).tag(MetricNames.TAG_CLOUD, "c0")
                .tag(MetricNames.TAG_OP, "get").timers().stream().mapToLong(Timer::count).sum();
    }

    private long bytesIn() {
        return sum(Search.in(registry).name(MetricNames.CLOUD_BYTES).tag(MetricNames.TAG_CLOUD, "c0")
                .tag(MetricNames.TAG_DIRECTION, "in"));
    }

    private static long sum(Search s) {
        return (long) s.counters().stream().mapToDouble(Counter::count).sum();
    }

    /**
     * Holds every GET until the test releases it. One that ignores interrupts then answers in full, as a cloud
     * whose answer was already on its way; one that honours them fails when interrupted, as an aborted download.
     */
    private final class HeldGets extends ForwardingCloudStore {
        private final boolean honoursInterrupts;

        HeldGets(InMemoryCloudStore delegate, boolean honoursInterrupts) {
            super(delegate);
            this.honoursInterrupts = honoursInterrupts;
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        release.await();
                        break;
                    } catch (InterruptedException e) {
                        if (honoursInterrupts) {
                            Thread.currentThread().interrupt();
                            throw new TransientCloudException("c0", "download interrupted", e);
                        }
                        interrupted = true;
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.get(objectKey, maxBytes);
        }
    }
}
