/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.SweepReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.CorruptingCloudStore;
import io.hybris.testkit.EventRecorder;
import io.hybris.testkit.FaultInjectingCloudStore;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.RecordingCloudStore.Op;
import io.hybris.testkit.UnavailableCloudStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The acceptance test of the metrics: a known sequence (puts, overwrites, gets from a corrupting cloud, a worst-case
 * GET through an outage, a sweep) over three in-memory clouds, then every counter per cloud equals what decorators
 * in front of each cloud observed (requests by operation, failures, bytes in and out, deletions).
 */
class KnownSequenceMetricsTest {
    private static final String C = "photos";
    private static final int N = 5;
    /** The sweep stores and deletes an empty marker on each cloud to read its clock: requests, not deletions. */
    private static final String SWEEP_MARKER = ".probe/sweep-";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final CorruptingCloudStore corrupt = CorruptingCloudStore.of(raw.get(0));
    private final UnavailableCloudStore down1 = UnavailableCloudStore.of(raw.get(1));
    private final UnavailableCloudStore down2 = UnavailableCloudStore.of(raw.get(2));
    private final List<FaultInjectingCloudStore> faults = List.of(corrupt, down1, down2);
    private final List<TallyingCloudStore> tallies = new ArrayList<>();
    private final List<RecordingCloudStore> recorders = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EventRecorder events = new EventRecorder();
    private final List<Hybris> open = new ArrayList<>();

    KnownSequenceMetricsTest() {
        down1.setActive(false);
        down2.setActive(false);
        for (FaultInjectingCloudStore f : faults) {
            TallyingCloudStore t = new TallyingCloudStore(f);
            tallies.add(t);
            recorders.add(RecordingCloudStore.of(t));
        }
    }

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(List<? extends CloudStore> clouds, boolean gc, HybrisListener listener) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(20))
                .gcEnabled(gc).gcGrace(Duration.ofHours(1)).probeInterval(Duration.ZERO).listener(listener);
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private static byte[] value(int size, int seed) {
        byte[] v = new byte[size];
        for (int i = 0; i < size; i++) {
            v[i] = (byte) (i * 31 + seed);
        }
        return v;
    }

    @Test
    void countersEqualWhatTheCloudsSaw() throws Exception {
        HybrisMetrics metrics = new HybrisMetrics(registry);
        Hybris h = client(recorders, true, HybrisListener.of(metrics, events));
        metrics.bindUsage(h);

        // N puts, then 2 overwrites whose superseded versions garbage collection deletes (2 keys x f+1 clouds)
        for (int i = 0; i < N; i++) {
            h.put(C, "k" + i, value(1000 + i * 100, i));
        }
        h.put(C, "k0", value(3000, 10));
        h.put(C, "k1", value(3100, 11));
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(gcDeletions()).isEqualTo(4));

        // N gets: c0 corrupts every read, the value still comes back right
        for (int i = 0; i < N; i++) {
            byte[] expected = i == 0 ? value(3000, 10) : i == 1 ? value(3100, 11) : value(1000 + i * 100, i);
            assertThat(h.get(C, "k" + i)).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
        }

        // a key on c0 and c1 only (c2 down while it is written), read while c1 is down: the worst case, which ends
        // when c1 comes back
        down2.setActive(true);
        byte[] wc = value(2000, 42);
        assertThat(h.put(C, "wc", wc).clouds()).containsExactlyInAnyOrder("c0", "c1");
        down2.setActive(false);
        down1.setActive(true);
        CompletableFuture<Optional<byte[]>> pending = h.getAsync(C, "wc");
        await().atMost(10, TimeUnit.SECONDS).until(() -> count(MetricNames.WORST_CASE_GETS) == 1);
        assertThat(pending).isNotDone();
        down1.setActive(false);
        assertThat(pending.get(15, TimeUnit.SECONDS)).hasValueSatisfying(v -> assertThat(v).isEqualTo(wc));

        // another client (no garbage collection, straight to the clouds) leaves a superseded version behind
        Hybris writer = client(raw, false, new HybrisListener() {
        });
        writer.put(C, "s", value(500, 1));
        writer.put(C, "s", value(600, 2));
        SweepReport swept = h.sweepOrphans();
        assertThat(swept.deleted()).isEqualTo(2);

        await().atMost(10, TimeUnit.SECONDS).untilAsserted(this::assertCountersMatchTheClouds);

        // client calls: every one timed, with its outcome
        assertThat(operations("put", "ok")).isEqualTo(N + 3);
        assertThat(operations("get", "ok")).isEqualTo(N + 1);
        assertThat(operations("sweep", "ok")).isEqualTo(1);
        assertThat(registry.find(MetricNames.OPERATIONS).timers()).allSatisfy(t ->
                assertThat(t.getId().getTag(MetricNames.TAG_OUTCOME)).isEqualTo("ok"));
        // metadata: one read per call and per key the sweep judged, one update per put, the watch of the worst case
        assertThat(metadataCalls("update", "ok")).isEqualTo(N + 3);
        assertThat(metadataCalls("read", "ok")).isEqualTo((N + 3) + (N + 1) + (N + 2));
        assertThat(metadataCalls("watch", "ok")).isGreaterThanOrEqualTo(1);
        assertThat(registry.find(MetricNames.CAS_CONFLICTS).counters()).isEmpty();
        assertThat(count(MetricNames.WORST_CASE_GETS)).isEqualTo(events.worstCaseGets()).isEqualTo(1);
        assertThat(count(MetricNames.SWEEP_DELETIONS)).isEqualTo(2);
        assertThat(gcDeletions()).isEqualTo(4);
        // the corrupting cloud was asked at least once (the worst case asks every listed cloud)
        assertThat(errors("c0", "get", "corrupt")).isGreaterThanOrEqualTo(1);
        assertThat(errors("c1", "get", "unavailable")).isGreaterThanOrEqualTo(1);
    }

    /** Every cloud counter equals what the decorators in front of that cloud observed. */
    private void assertCountersMatchTheClouds() {
        for (int i = 0; i < 3; i++) {
            String cloud = "c" + i;
            RecordingCloudStore rec = recorders.get(i);
            TallyingCloudStore tally = tallies.get(i);
            for (Op op : Op.values()) {
                String o = op.name().toLowerCase(Locale.ROOT);
                assertThat(requests(cloud, o, null)).as("%s %s requests", cloud, o).isEqualTo(rec.count(op));
                long failed = cloud.equals("c0") && op == Op.GET ? rec.count(op) : tally.failures(op);
                assertThat(requests(cloud, o, "ok")).as("%s %s ok", cloud, o).isEqualTo(rec.count(op) - failed);
                assertThat(errors(cloud, o, null)).as("%s %s errors", cloud, o).isEqualTo(failed);
                assertThat(timerCount(Search.in(registry).name(MetricNames.CLOUD_LATENCY)
                        .tag(MetricNames.TAG_CLOUD, cloud).tag(MetricNames.TAG_OP, o)))
                        .as("%s %s latency samples", cloud, o).isEqualTo(rec.count(op));
            }
            long unavailable = tally.failures(Op.PUT) + tally.failures(Op.GET) + tally.failures(Op.LIST)
                    + tally.failures(Op.DELETE);
            assertThat(errors(cloud, null, "unavailable")).as("%s unavailable", cloud).isEqualTo(unavailable);
            assertThat(errors(cloud, "get", "corrupt")).as("%s corrupt", cloud)
                    .isEqualTo(cloud.equals("c0") ? rec.count(Op.GET) : 0);
            assertThat(bytes(cloud, "out")).as("%s bytes out", cloud).isEqualTo(tally.bytesOut());
            assertThat(bytes(cloud, "in")).as("%s bytes in", cloud).isEqualTo(tally.bytesIn());
            assertThat(sum(Search.in(registry).name(MetricNames.GC_DELETIONS).tag(MetricNames.TAG_CLOUD, cloud))
                    + sum(Search.in(registry).name(MetricNames.SWEEP_DELETIONS).tag(MetricNames.TAG_CLOUD, cloud)))
                    .as("%s deletions", cloud).isEqualTo(rec.count(Op.DELETE) - rec.count(Op.DELETE, SWEEP_MARKER));
            // the billable counters (what the cost report prices): every listing here is one page
            assertThat(billable(cloud, "put_list")).as("%s billable put/list", cloud)
                    .isEqualTo(rec.count(Op.PUT) + rec.count(Op.LIST));
            assertThat(billable(cloud, "get_head")).as("%s billable get", cloud).isEqualTo(rec.count(Op.GET));
            assertThat(billable(cloud, "delete")).as("%s billable delete", cloud).isEqualTo(rec.count(Op.DELETE));
            assertThat(functionSum(Search.in(registry).name(MetricNames.BILLABLE_BYTES)
                    .tag(MetricNames.TAG_CLOUD, cloud).tag(MetricNames.TAG_DIRECTION, "in")))
                    .as("%s billable bytes in", cloud).isEqualTo(tally.bytesIn());
            assertThat(functionSum(Search.in(registry).name(MetricNames.BILLABLE_BYTES)
                    .tag(MetricNames.TAG_CLOUD, cloud).tag(MetricNames.TAG_DIRECTION, "out")))
                    .as("%s billable bytes out", cloud).isEqualTo(tally.bytesOut());
            // the event stream agrees with the meters
            assertThat(events.events().stream().filter(e -> e.cloudId().equals(cloud)
                    && e.outcome() != HybrisListener.Outcome.ABANDONED).count())
                    .isEqualTo(rec.calls().size());
        }
    }

    private long requests(String cloud, String op, String outcome) {
        Search s = Search.in(registry).name(MetricNames.CLOUD_REQUESTS).tag(MetricNames.TAG_CLOUD, cloud)
                .tag(MetricNames.TAG_OP, op);
        return sum(outcome == null ? s : s.tag(MetricNames.TAG_OUTCOME, outcome));
    }

    private long errors(String cloud, String op, String kind) {
        Search s = Search.in(registry).name(MetricNames.CLOUD_ERRORS).tag(MetricNames.TAG_CLOUD, cloud);
        s = op == null ? s : s.tag(MetricNames.TAG_OP, op);
        return sum(kind == null ? s : s.tag(MetricNames.TAG_KIND, kind));
    }

    private long bytes(String cloud, String direction) {
        return sum(Search.in(registry).name(MetricNames.CLOUD_BYTES).tag(MetricNames.TAG_CLOUD, cloud)
                .tag(MetricNames.TAG_DIRECTION, direction));
    }

    private long gcDeletions() {
        return sum(Search.in(registry).name(MetricNames.GC_DELETIONS).tag(MetricNames.TAG_CAUSE, "superseded"));
    }

    private long count(String counter) {
        return sum(Search.in(registry).name(counter));
    }

    private long operations(String op, String outcome) {
        return timerCount(Search.in(registry).name(MetricNames.OPERATIONS).tag(MetricNames.TAG_OP, op)
                .tag(MetricNames.TAG_OUTCOME, outcome));
    }

    private long metadataCalls(String op, String outcome) {
        return timerCount(Search.in(registry).name(MetricNames.METADATA_CALLS).tag(MetricNames.TAG_OP, op)
                .tag(MetricNames.TAG_OUTCOME, outcome));
    }

    private long billable(String cloud, String requestClass) {
        return functionSum(Search.in(registry).name(MetricNames.BILLABLE_REQUESTS).tag(MetricNames.TAG_CLOUD, cloud)
                .tag(MetricNames.TAG_CLASS, requestClass));
    }

    private static long functionSum(Search s) {
        return (long) s.functionCounters().stream().mapToDouble(io.micrometer.core.instrument.FunctionCounter::count)
                .sum();
    }

    private static long sum(Search s) {
        return (long) s.counters().stream().mapToDouble(Counter::count).sum();
    }

    private static long timerCount(Search s) {
        return s.timers().stream().mapToLong(Timer::count).sum();
    }
}
