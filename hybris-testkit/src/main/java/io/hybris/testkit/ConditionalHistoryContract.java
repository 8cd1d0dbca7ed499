/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.testkit.LinearizabilityChecker.Verdict;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients mixing plain and conditional writes on shared keys, as sync apps do (read the current version, then write
 * or delete {@code ifMatch} it; create {@code ifAbsent}; a TPUT with a precondition on one key), beside plain PUTs,
 * DELETEs and GETs, while a {@link RotatingCloudFaults} moves one fault from cloud to cloud; the history,
 * preconditions and their outcomes included, must be linearizable key by key. Each value carries its own name as application metadata, so a
 * {@code describe} names the value whose version it returns. {@code -Dhybris.conditional.runs=N} repeats the run
 * with N seeds (default 1).
 */
public abstract class ConditionalHistoryContract extends HybrisContractFixture {
    private static final int THREADS = 6;
    private static final int OPS_PER_THREAD = 150;
    private static final List<String> KEYS = List.of("x", "y");

    /** What a run counted, besides its history. */
    private record Counts(AtomicInteger held, AtomicInteger failedPreconditions, AtomicInteger unknown) {
    }

    @Test
    void conditionalAndPlainWritesProduceALinearizableHistory() throws Exception {
        int runs = Integer.getInteger("hybris.conditional.runs", 1);
        for (int run = 0; run < runs; run++) {
            if (run > 0) { // a fresh store and clouds for each run
                renewStores();
            }
            runOnce(run);
        }
    }

    private void runOnce(int run) throws Exception {
        RegisterHistory history = new RegisterHistory();
        Counts counts = new Counts(new AtomicInteger(), new AtomicInteger(), new AtomicInteger());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (RotatingCloudFaults nemesis = RotatingCloudFaults.over(raw, 7 + run, Duration.ofMillis(30))) {
            List<Hybris> hs = new ArrayList<>();
            for (int c = 0; c < THREADS - 2; c++) { // two clients shared by two threads each
                hs.add(open(config(nemesis.clouds()).clientId("client-" + c)));
            }
            nemesis.start();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                Hybris h = hs.get(thread % hs.size());
                Random random = new Random(1000L * run + thread);
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < OPS_PER_THREAD; i++) {
                        step(h, thread, "t" + thread + "-" + i, KEYS.get(random.nextInt(KEYS.size())),
                                random.nextInt(11), history, counts);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
            nemesis.stop();
            for (String key : KEYS) { // every key readable with the faults off; the reads join the history
                long t0 = System.nanoTime();
                String got = str(hs.get(0).get(C, key));
                history.add(new Op(THREADS, Kind.READ, key, got, t0, System.nanoTime()));
            }
        } finally {
            pool.shutdownNow();
        }
        List<Op> ops = history.operations();
        assertThat(counts.held()).as("conditional calls that succeeded (run %d)", run).hasPositiveValue();
        assertThat(counts.failedPreconditions()).as("failed preconditions (run %d)", run).hasPositiveValue();
        assertThat(counts.unknown().get()).as("unknown outcomes").isLessThan(THREADS * OPS_PER_THREAD / 10);
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops);
        assertThat(result.byKey()).as("run %d: verdict per key (%d states explored)%s", run,
                        result.statesExplored(), LinearizabilityChecker.historyOnFailure(result, ops))
                .isEqualTo(KEYS.stream().collect(Collectors.toMap(k -> k, k -> Verdict.LINEARIZABLE)));
    }

    /**
     * One call by {@code dice}: 0-1 PUT, 2 DELETE, 3-4 GET, 5-7 describe and write ifMatch, 8-9 delete ifMatch, 10
     * a TPUT of every key, {@code key} ifMatch the version described.
     */
    private void step(Hybris h, int thread, String value, String key, int dice, RegisterHistory history,
                      Counts counts) {
        if (dice == 10) {
            transaction(h, thread, value, key, history, counts);
            return;
        }
        if (dice >= 5) {
            readModifyWrite(h, thread, value, key, dice >= 8, history, counts);
            return;
        }
        Kind kind = dice < 2 ? Kind.WRITE : dice == 2 ? Kind.DELETE : Kind.READ;
        String recorded = kind == Kind.WRITE ? value : null;
        long t0 = System.nanoTime();
        try {
            if (kind == Kind.WRITE) {
                h.put(C, key, bytes(value), named(PutOptions.none(), value));
            } else if (kind == Kind.DELETE) {
                recorded = RegisterHistory.deleteResult(h.delete(C, key).isPresent());
            } else {
                recorded = str(h.get(C, key));
            }
            history.add(new Op(thread, kind, key, recorded, t0, System.nanoTime()));
        } catch (HybrisException e) {
            if (kind != Kind.READ && !(e instanceof NotEnoughCloudsException)) {
                counts.unknown().incrementAndGet();
                history.add(new Op(thread, kind, key, kind == Kind.WRITE ? value : null, t0,
                        RegisterHistory.UNKNOWN_RESPONSE));
            }
        }
    }

    /**
     * Describes the key (a read: the value named by the version's metadata), then writes {@code value} or deletes
     * ({@code delete}) ifMatch that version; a value absent is created ifAbsent instead (or, to delete, nothing).
     */
    private void readModifyWrite(Hybris h, int thread, String value, String key, boolean delete,
                                 RegisterHistory history, Counts counts) {
        long r0 = System.nanoTime();
        Optional<VersionInfo> seen;
        try {
            seen = h.describe(C, key);
        } catch (HybrisException e) {
            return; // a read that failed observed nothing
        }
        String seenValue = seen.map(v -> v.metadata().get("value")).orElse(null);
        history.add(new Op(thread, Kind.READ, key, seenValue, r0, System.nanoTime()));
        if (delete && seen.isEmpty()) {
            return;
        }
        Kind kind = delete ? Kind.DELETE : Kind.WRITE;
        long t0 = System.nanoTime();
        try {
            if (delete) {
                assertThat(h.delete(C, key, DeleteOptions.ifMatch(seen.get().version()))).isPresent();
            } else {
                PutOptions options = seen.map(v -> PutOptions.ifMatch(v.version())).orElseGet(PutOptions::ifAbsent);
                h.put(C, key, bytes(value), named(options, value));
            }
            counts.held().incrementAndGet();
            history.add(Op.conditional(thread, kind, key, delete ? null : value, seenValue, true, t0,
                    System.nanoTime()));
        } catch (PreconditionFailedException e) {
            counts.failedPreconditions().incrementAndGet();
            history.add(Op.conditional(thread, kind, key, delete ? null : value, seenValue, false, t0,
                    System.nanoTime()));
        } catch (HybrisException e) {
            if (!(e instanceof NotEnoughCloudsException)) {
                counts.unknown().incrementAndGet();
                history.add(Op.conditional(thread, kind, key, delete ? null : value, seenValue, true, t0,
                        RegisterHistory.UNKNOWN_RESPONSE));
            }
        }
    }

    /**
     * Describes {@code key}, then writes every key in one TPUT, {@code key} ifMatch the version described (or
     * ifAbsent): per key a conditional write, and plain writes of the others. A failed precondition or an aborted
     * transaction wrote nothing: only the key whose precondition failed records a call, a failed one.
     */
    private void transaction(Hybris h, int thread, String value, String key, RegisterHistory history,
                             Counts counts) {
        long r0 = System.nanoTime();
        Optional<VersionInfo> seen;
        try {
            seen = h.describe(C, key);
        } catch (HybrisException e) {
            return;
        }
        String seenValue = seen.map(v -> v.metadata().get("value")).orElse(null);
        history.add(new Op(thread, Kind.READ, key, seenValue, r0, System.nanoTime()));
        Map<String, byte[]> values = new java.util.LinkedHashMap<>();
        KEYS.forEach(k -> values.put(k, bytes(value + k)));
        Map<String, PutOptions> options = new java.util.HashMap<>();
        KEYS.forEach(k -> options.put(k, named(PutOptions.none(), value + k)));
        options.put(key, named(seen.map(v -> PutOptions.ifMatch(v.version())).orElseGet(PutOptions::ifAbsent),
                value + key));
        long t0 = System.nanoTime();
        try {
            h.tput(C, values, options);
            long t1 = System.nanoTime();
            counts.held().incrementAndGet();
            for (String k : KEYS) {
                history.add(k.equals(key) ? Op.conditional(thread, Kind.WRITE, k, value + k, seenValue, true, t0, t1)
                        : new Op(thread, Kind.WRITE, k, value + k, t0, t1));
            }
        } catch (PreconditionFailedException e) {
            counts.failedPreconditions().incrementAndGet();
            assertThat(e.key()).isEqualTo(key);
            history.add(Op.conditional(thread, Kind.WRITE, key, value + key, seenValue, false, t0,
                    System.nanoTime()));
        } catch (io.hybris.TransactionAbortedException | NotEnoughCloudsException e) {
            // nothing written
        } catch (HybrisException e) {
            counts.unknown().incrementAndGet();
            for (String k : KEYS) {
                history.add(k.equals(key) ? Op.conditional(thread, Kind.WRITE, k, value + k, seenValue, true, t0,
                        RegisterHistory.UNKNOWN_RESPONSE)
                        : new Op(thread, Kind.WRITE, k, value + k, t0, RegisterHistory.UNKNOWN_RESPONSE));
            }
        }
    }

    private static PutOptions named(PutOptions options, String value) {
        return options.withMetadata(Map.of("value", value));
    }
}
