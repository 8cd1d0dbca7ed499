/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.SweepReport;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.ByzantineCloudStore;
import io.hybris.testkit.EmulatedClouds;
import io.hybris.testkit.RegisterHistory;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The fault campaign: epochs of concurrent load from threads sharing clients, from several clients and from a
 * client JVM that gets killed, while every nemesis runs; after each epoch the faults are healed and every key of
 * the epoch is read (availability after quiescence) and the epoch's history checked; at the end the clouds are
 * scanned for plaintext and swept. Each epoch uses fresh keys, so histories stay small enough to check and a
 * write with an unknown outcome from one epoch cannot blur the next. See {@code docs/reliability.md}.
 */
final class Campaign {
    /**
     * What to run.
     *
     * @param metadata         {@code zookeeper} or {@code consul}
     * @param seed             seeds every random choice of the generator and the nemeses (timing still varies)
     * @param duration         total load time
     * @param epoch            load time per epoch
     * @param clients          in-process clients
     * @param threadsPerClient worker threads sharing each client
     * @param keysPerEpoch     keys written per epoch (few, so writes collide)
     * @param encrypt          whether clients encrypt values (and the plaintext check runs)
     * @param erasure          whether larger values are erasure-coded (a mix of layouts in one run)
     */
    record Settings(String metadata, long seed, Duration duration, Duration epoch, int clients,
                    int threadsPerClient, int keysPerEpoch, boolean encrypt, boolean erasure) {
    }

    private final Settings settings;
    private final TestEnvironment env;
    private final Path workDir;
    private final Consumer<String> progress;
    private final Tally tally = new Tally();
    private final List<String> checks = new ArrayList<>();

    Campaign(Settings settings, TestEnvironment env, Path workDir, Consumer<String> progress) {
        this.settings = settings;
        this.env = env;
        this.workDir = workDir;
        this.progress = progress;
    }

    CampaignReport run() throws Exception {
        long started = System.nanoTime();
        String namespace = "campaign-" + Long.toUnsignedString(settings.seed(), 36) + "-"
                + Long.toString(System.currentTimeMillis(), 36);
        EmulatedClouds emulated = new EmulatedClouds(env);
        List<Toxiproxy.Proxy> proxies = List.of(emulated.proxy(EmulatedClouds.Kind.S3),
                emulated.proxy(EmulatedClouds.Kind.AZURE), emulated.proxy(EmulatedClouds.Kind.GCS));
        List<CloudStore> raw = retried(() -> emulated.threeStores(namespace + "/"));
        List<ByzantineCloudStore> clouds = raw.stream().map(ByzantineCloudStore::of).toList();
        Map<String, Optional<String>> finalValues = new LinkedHashMap<>();
        Map<String, Set<String>> unknownWrites = new HashMap<>();
        int epochs = 0;
        try (MetadataCluster cluster = settings.metadata().equals("consul") ? new ConsulServers()
                : new ZooKeeperEnsemble()) {
            Map<String, String> childProperties = new LinkedHashMap<>(emulated.hybrisProperties(namespace + "/"));
            // the buckets exist (this JVM's clouds created them): a child opens without a request to any cloud
            childProperties.replaceAll((k, v) -> k.endsWith(".create-bucket") ? "false" : v);
            childProperties.putAll(cluster.hybrisProperties(namespace));
            childProperties.putAll(ClientConfig.properties(settings.encrypt(), settings.erasure()));
            AtomicLong ids = new AtomicLong();
            AtomicInteger generations = new AtomicInteger();
            ClientConfig config = new ClientConfig(clouds, settings.encrypt(), settings.erasure());
            try (ClientPool pool = new ClientPool(cluster, namespace, config, settings.clients())) {
                long loadNanos = 0;
                while (loadNanos < settings.duration().toNanos()) {
                    long t0 = System.nanoTime();
                    Duration length = Duration.ofNanos(Math.min(settings.epoch().toNanos(),
                            settings.duration().toNanos() - loadNanos));
                    finalValues.putAll(epoch(epochs, length, cluster, pool, clouds, proxies, childProperties, ids,
                            generations, unknownWrites));
                    loadNanos += length.toNanos();
                    epochs++;
                    progress.accept(String.format("[%s seed=%d] epoch %d done in %ds: %s", settings.metadata(),
                            settings.seed(), epochs, Duration.ofNanos(System.nanoTime() - t0).toSeconds(),
                            tally.line()));
                    if (loadNanos < settings.duration().toNanos()) {
                        sweepBetweenEpochs(cluster, namespace, config, epochs);
                    }
                }
            }
            if (settings.encrypt()) {
                checkNoPlaintext(raw);
            }
            checkSweep(cluster, namespace, config, finalValues, unknownWrites);
        } finally {
            // best effort: a stalled toxiproxy must not hide the report of a finished run
            for (Toxiproxy.Proxy proxy : proxies) {
                try {
                    proxy.reset();
                } catch (RuntimeException e) {
                    progress.accept("could not reset " + proxy + " after the run: " + e.getMessage());
                }
            }
            raw.forEach(CloudStore::close);
        }
        return new CampaignReport(settings, Duration.ofNanos(System.nanoTime() - started), epochs, tally, checks);
    }

    /** One epoch: load and faults, heal, then read every key and check the history. Returns the final values. */
    private Map<String, Optional<String>> epoch(int epoch, Duration length, MetadataCluster cluster, ClientPool pool,
                                                List<ByzantineCloudStore> clouds, List<Toxiproxy.Proxy> proxies,
                                                Map<String, String> childProperties, AtomicLong ids,
                                                AtomicInteger generations, Map<String, Set<String>> unknownWrites)
            throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < settings.keysPerEpoch(); i++) {
            keys.add("e" + epoch + "-k" + i);
        }
        Recorder recorder = new Recorder(tally);
        long seed = settings.seed() + epoch * 1_000_003L;
        Workers workers = new Workers(pool, recorder, keys, "e" + epoch + "w", ids,
                settings.clients() * settings.threadsPerClient(), seed);
        ProcessKillNemesis childNemesis = new ProcessKillNemesis(childProperties, keys, "e" + epoch, recorder, tally,
                workDir, generations, seed);
        NemesisRunner nemeses = new NemesisRunner(List.of(new CloudNemesis(clouds, proxies, tally),
                new LeaderNemesis(cluster, tally), new InterruptNemesis(workers.threads(), tally),
                new CloseNemesis(pool, tally), childNemesis), seed);
        workers.start();
        nemeses.start();
        long end = System.nanoTime() + length.toNanos();
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(left / 1_000_000 + 1, 10_000)); // the epoch's load time: nothing to await
            progress.accept(String.format("[%s seed=%d] epoch %d: %s", settings.metadata(), settings.seed(),
                    epoch + 1, tally.line()));
        }
        nemeses.stopAndHeal();
        workers.stop();
        Map<String, Op> finalReads = readEveryKey(pool, keys, recorder);
        HistoryChecks.Verdict verdict = HistoryChecks.check(recorder.history().operations(), finalReads,
                recorder.failedWrites());
        verdict.notLinearizable().forEach(k -> tally.violation("epoch " + epoch + ": history of " + k
                + " is not linearizable"));
        verdict.undecided().forEach(k -> tally.violation("epoch " + epoch + ": linearizability of " + k
                + " undecided within the checker's budget (not passed)"));
        verdict.lostWrites().forEach(p -> tally.violation("epoch " + epoch + ": acknowledged write lost: " + p));
        verdict.failedWritesRead().forEach(p -> tally.violation("epoch " + epoch + ": a failed write was read: " + p));
        for (String key : concat(verdict.notLinearizable(), verdict.undecided())) {
            // the console and the campaign's log keep the history: a violation seen once must be explainable later
            progress.accept("history of " + key + " in epoch " + epoch + " (ms from its first invoke):\n"
                    + HistoryChecks.describe(recorder.history().operations(), recorder.failedWrites(), key));
        }
        checks.add(String.format("epoch %d: %d ops, %d keys read after quiescence, linearizable %d/%d, lost %d",
                epoch + 1, recorder.history().operations().size(), finalReads.size(), verdict.linearizable(),
                verdict.keys(), verdict.lostWrites().size()));
        for (Op op : recorder.history().operations()) {
            if (op.kind() == Kind.WRITE && op.response() == RegisterHistory.UNKNOWN_RESPONSE) {
                unknownWrites.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value());
            }
        }
        Map<String, Optional<String>> values = new LinkedHashMap<>();
        finalReads.forEach((k, op) -> values.put(k, Optional.ofNullable(op.value())));
        return values;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Availability after quiescence: every key is read, within the deadline, by a fresh client. */
    private Map<String, Op> readEveryKey(ClientPool pool, List<String> keys, Recorder recorder) {
        Map<String, Op> reads = new LinkedHashMap<>();
        MetadataStore store = pool.newStore();
        try (Hybris reader = Hybris.open(pool.config().builder(store, Duration.ofHours(1)).build())) {
            for (String key : keys) {
                long t0 = System.nanoTime();
                try {
                    Optional<byte[]> value = reader.get(Workers.CONTAINER, key);
                    long t1 = System.nanoTime();
                    String id = value.map(v -> CampaignValues.idOf(v, Recorder.MAX_PADDING)).orElse(null);
                    Op read = new Op(-1, Kind.READ, key, id, t0, t1);
                    recorder.history().add(read);
                    reads.put(key, read);
                } catch (RuntimeException e) {
                    tally.violation("key " + key + " unreadable after quiescence: " + e);
                }
            }
        } finally {
            store.close();
        }
        return reads;
    }

    /** With encryption on, no object on any cloud contains a value's plaintext marker. */
    private void checkNoPlaintext(List<CloudStore> raw) {
        int scanned = 0;
        int plaintext = 0;
        for (CloudStore cloud : raw) {
            for (CloudObject o : retried(() -> cloud.list(""))) {
                Optional<byte[]> bytes = retried(() -> cloud.get(o.key(), Long.MAX_VALUE));
                scanned++;
                if (bytes.isPresent() && CampaignValues.containsPlaintext(bytes.get())) {
                    plaintext++;
                    tally.violation("plaintext on cloud " + cloud.id() + " in " + o.key());
                }
            }
        }
        checks.add("no plaintext: " + scanned + " objects scanned on 3 clouds, " + plaintext + " with plaintext");
    }

    /**
     * How long the sweeps after the first may take to reach a sweep with nothing left to delete. A sweep whose listing
     * of a cloud times out takes that cloud's request timeout (60 s) to say so: a CI run saw Azurite's listing time
     * out twice in a row right after a sweep had deleted 1,425 objects there, so this allows several such sweeps.
     */
    private static final long SWEEP_FIXPOINT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(300);

    /** Whether a sweep found only referenced objects and failed nothing. */
    private static boolean clean(SweepReport r) {
        return r.deleted() == 0 && r.tooYoung() == 0 && r.failed() == 0 && r.examined() == r.referenced();
    }

    /**
     * Sweeps the orphans the epochs so far left (uploads of interrupted, killed and closed writers) older than
     * {@link #BETWEEN_EPOCHS_GRACE}, as an operator's periodic sweep would. Without it they pile up in one bucket per
     * cloud (30,000 objects in a 20-minute soak), and the emulators' per-request cost grows with a bucket's objects
     * (fake-gcs-server's memory backend and Azurite's in-memory store scan them for a lookup): the load of the later
     * epochs fell by a third. The sweep
     * runs with the faults healed and no writer left; what it deletes is checked at the end: every key must read
     * after the campaign what it read at its epoch's end (or a write with an unknown outcome), and the final sweeps
     * with grace 0 must leave no orphan.
     */
    private void sweepBetweenEpochs(MetadataCluster cluster, String namespace, ClientConfig config, int epochs) {
        MetadataStore store = cluster.newStore(namespace);
        try (Hybris sweeper = Hybris.open(config.builder(store, BETWEEN_EPOCHS_GRACE).build())) {
            SweepReport report = sweeper.sweepOrphans();
            checks.add("sweep after epoch " + epochs + " (grace " + BETWEEN_EPOCHS_GRACE.toSeconds() + " s): "
                    + report);
            progress.accept(String.format("[%s seed=%d] sweep after epoch %d: %s", settings.metadata(),
                    settings.seed(), epochs, report));
        } catch (RuntimeException e) {
            // a failed sweep only leaves orphans for the next one; the final sweeps must still reach their fixpoint
            checks.add("sweep after epoch " + epochs + " failed: " + e);
            progress.accept("sweep after epoch " + epochs + " failed: " + e);
        } finally {
            store.close();
        }
    }

    /**
     * The grace of the sweeps between epochs: an upload of a closed writer that was still on the wire when the
     * epoch ended is not deleted under a metadata update that may yet land (the final sweeps use grace 0).
     */
    private static final Duration BETWEEN_EPOCHS_GRACE = Duration.ofSeconds(30);

    /**
     * The sweep with grace 0 leaves no orphan (a second sweep finds only referenced objects) and deletes nothing
     * live: every key reads the same before and after it. Before the sweep, a key may read another value than at
     * its epoch's end only if that value is a write of the key whose outcome was unknown — its metadata update was
     * still on its way when the epoch's reads ran (an unknown outcome may take effect later; the linearizability
     * check allows it) — anything else is a value changed after quiescence.
     */
    private void checkSweep(MetadataCluster cluster, String namespace, ClientConfig config,
                            Map<String, Optional<String>> finalValues, Map<String, Set<String>> unknownWrites) {
        MetadataStore store = cluster.newStore(namespace);
        try (Hybris sweeper = Hybris.open(config.builder(store, Duration.ZERO).build())) {
            Map<String, Optional<String>> before = new LinkedHashMap<>();
            int lateLandings = 0;
            for (Map.Entry<String, Optional<String>> e : finalValues.entrySet()) {
                Optional<String> now = readId(sweeper, e.getKey());
                before.put(e.getKey(), now);
                if (now != null && !now.equals(e.getValue())) {
                    if (now.isPresent() && unknownWrites.getOrDefault(e.getKey(), Set.of()).contains(now.get())) {
                        lateLandings++;
                    } else {
                        tally.violation(e.getKey() + " reads " + now + " after quiescence, but " + e.getValue()
                                + " at its epoch's end, and " + now + " is no write with an unknown outcome");
                    }
                }
            }
            // Sweep until a sweep finds nothing to delete and fails nothing (its fixpoint). More than one may be
            // needed: a sweep that reports a failure (a cloud's listing timed out) has skipped objects, and an upload
            // of a closed or killed client that was already on the wire can land after a sweep deleted its siblings
            // (an unknown outcome; in production the grace period covers it). Orphans the sweep cannot remove keep
            // every sweep from its fixpoint, so they still fail the check.
            SweepReport first = sweeper.sweepOrphans();
            List<SweepReport> more = new ArrayList<>();
            long until = System.nanoTime() + SWEEP_FIXPOINT_NANOS;
            SweepReport second;
            do {
                second = sweeper.sweepOrphans();
                more.add(second);
            } while (!clean(second) && System.nanoTime() < until && more.size() < 10);
            if (!clean(second)) {
                tally.violation("orphans left after sweeps with grace 0: " + more + " (first sweep: " + first + ")");
            }
            int changed = 0;
            for (Map.Entry<String, Optional<String>> e : before.entrySet()) {
                Optional<String> after = readId(sweeper, e.getKey());
                if (e.getValue() != null && !e.getValue().equals(after)) {
                    changed++;
                    tally.violation("the sweep changed " + e.getKey() + ": " + e.getValue() + " before, " + after
                            + " after");
                }
            }
            checks.add("sweep (grace 0): first " + first + ", then " + more + "; " + before.size()
                    + " keys read before and after it, " + changed + " changed or unreadable; " + lateLandings
                    + " keys showed a write with an unknown outcome that landed after its epoch's reads");
        } finally {
            store.close();
        }
    }

    /** The id of the write {@code key} reads now (empty if absent), or null — counted as a violation — if unreadable. */
    private Optional<String> readId(Hybris client, String key) {
        try {
            return client.get(Workers.CONTAINER, key).map(v -> CampaignValues.idOf(v, Recorder.MAX_PADDING));
        } catch (RuntimeException e) {
            tally.violation(key + " unreadable after quiescence: " + e);
            return null;
        }
    }

    /**
     * A direct emulator call of the harness (not of Hybris), retried up to three times on a transient failure: an
     * emulator overloaded by a long campaign on a small machine sometimes answers only after its request timeout.
     */
    private static <T> T retried(java.util.function.Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (io.hybris.spi.TransientCloudException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }
}
