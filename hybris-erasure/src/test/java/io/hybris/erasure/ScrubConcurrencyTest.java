/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.ErasurePolicy;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.LinearizabilityChecker;
import io.hybris.testkit.RecordingCloudStore;
import io.hybris.testkit.RegisterHistory;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scrub and repair running in a loop while four clients PUT, DELETE and GET the same keys (replicated and
 * erasure-coded) and a nemesis deletes copies on one cloud: the history of every key is linearizable (the testkit
 * checker), the scrubber deletes nothing, and once the writers stop every copy metadata references is in place. The
 * writers go on past their ops until a scrub has repaired a copy during the writes (at most 60 s more).
 */
class ScrubConcurrencyTest {
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));
    private final List<Hybris> clients = new ArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(Hybris::close);
    }

    private Hybris client(String id, List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).clientId(id).metadataStore(metadata)
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(100))
                .containerErasurePolicy("coded", ErasurePolicy.ERASURE).probeInterval(Duration.ZERO);
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        clients.add(h);
        return h;
    }

    @Test
    void scrubAndRepairUnderConcurrentWritesKeepTheHistoryLinearizable() throws Exception {
        List<String> keys = List.of("plain/x", "plain/y", "plain/z", "coded/x", "coded/y");
        int writers = 4;
        int opsPerWriter = 500;
        RegisterHistory history = new RegisterHistory();
        List<Hybris> hs = new ArrayList<>();
        for (int c = 0; c < writers; c++) {
            hs.add(client("writer-" + c, raw));
        }
        List<RecordingCloudStore> scrubberClouds = raw.stream().map(RecordingCloudStore::of).toList();
        Hybris scrubber = client("scrubber", scrubberClouds);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger nemesisDeletes = new AtomicInteger();
        AtomicInteger scrubs = new AtomicInteger();
        AtomicInteger repairedCopies = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        try {
            Future<?> nemesis = pool.submit(() -> { // one cloud loses copies: at most one copy of any version
                Random random = new Random(1);
                while (writing.get()) {
                    List<CloudObject> objects = raw.get(0).list("hybris/");
                    if (!objects.isEmpty()) {
                        raw.get(0).delete(objects.get(random.nextInt(objects.size())).key());
                        nemesisDeletes.incrementAndGet();
                    }
                    Thread.sleep(2); // paces the fault injection (about 500 deletions/s); nothing waits on it
                }
                return null;
            });
            Future<?> scrubLoop = pool.submit(() -> {
                while (writing.get()) {
                    ScrubReport r = scrubber.scrub(ScrubOptions.listing().repair(true));
                    repairedCopies.addAndGet((int) r.copiesRepaired());
                    scrubs.incrementAndGet();
                }
                return null;
            });
            // each writer runs its ops, and goes on until the scrubber has repaired a copy while the writes run
            // (on a fast host the ops alone can end within two scrubs that found nothing left to repair)
            long repairDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<Future<?>> futures = new ArrayList<>();
            for (int c = 0; c < writers; c++) {
                int client = c;
                futures.add(pool.submit(() -> {
                    Random random = new Random(100 + client);
                    Hybris h = hs.get(client);
                    for (int i = 0; i < opsPerWriter
                            || repairedCopies.get() == 0 && System.nanoTime() < repairDeadline; i++) {
                        String ck = keys.get(random.nextInt(keys.size()));
                        String container = ck.substring(0, ck.indexOf('/'));
                        String key = ck.substring(ck.indexOf('/') + 1);
                        int dice = random.nextInt(10);
                        Kind kind = dice < 4 ? Kind.WRITE : dice < 5 ? Kind.DELETE : Kind.READ;
                        String value = kind == Kind.WRITE ? "c" + client + "-" + i : null;
                        long t0 = System.nanoTime();
                        try {
                            if (kind == Kind.WRITE) {
                                h.put(container, key, value.getBytes(StandardCharsets.UTF_8));
                            } else if (kind == Kind.DELETE) {
                                value = RegisterHistory.deleteResult(h.delete(container, key).isPresent());
                            } else {
                                value = h.get(container, key).map(v -> new String(v, StandardCharsets.UTF_8))
                                        .orElse(null);
                            }
                            history.add(new Op(client, kind, ck, value, t0, System.nanoTime()));
                        } catch (HybrisException e) {
                            if (kind != Kind.READ && !(e instanceof NotEnoughCloudsException)) {
                                history.add(new Op(client, kind, ck, value, t0, RegisterHistory.UNKNOWN_RESPONSE));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            writing.set(false);
            nemesis.get(1, TimeUnit.MINUTES);
            scrubLoop.get(5, TimeUnit.MINUTES);
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
        assertThat(nemesisDeletes.get()).as("copies the nemesis deleted").isGreaterThan(50);
        assertThat(scrubs.get()).as("scrubs that ran during the writes").isGreaterThan(1);
        assertThat(repairedCopies.get()).as("copies repaired during the writes").isPositive();

        ScrubReport last = scrubber.scrub(ScrubOptions.listing().repair(true));
        assertThat(last.unrecoverable()).isZero();
        ScrubReport check = scrubber.scrub(ScrubOptions.listing());
        assertThat(check.copiesMissing()).as("every copy metadata references is in place").isZero();
        assertThat(check.degraded()).isZero();
        for (RecordingCloudStore r : scrubberClouds) {
            assertThat(r.count(RecordingCloudStore.Op.DELETE)).as("deletes by the scrubber on " + r.id()).isZero();
        }
        for (String ck : keys) { // the final reads join the history: nothing resurrected
            long t0 = System.nanoTime();
            Optional<byte[]> got = hs.get(0).get(ck.substring(0, ck.indexOf('/')), ck.substring(ck.indexOf('/') + 1));
            history.add(new Op(writers, Kind.READ, ck, got.map(v -> new String(v, StandardCharsets.UTF_8)).orElse(null),
                    t0, System.nanoTime()));
        }
        List<Op> ops = history.operations();
        assertThat(LinearizabilityChecker.overlappingPairs(ops)).as("same-key pairs of overlapping calls with a write")
                .isGreaterThan(100);
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops);
        assertThat(result.byKey()).as("verdict per key (%d operations)", ops.size()).isEqualTo(keys.stream()
                .collect(Collectors.toMap(k -> k, k -> LinearizabilityChecker.Verdict.LINEARIZABLE)));
    }
}
