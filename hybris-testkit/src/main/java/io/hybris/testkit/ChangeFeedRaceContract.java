/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.HybrisListener.ConflictResolution;
import io.hybris.MetadataUnavailableException;
import io.hybris.PutOptions;
import io.hybris.TransactionAbortedException;
import io.hybris.VersionInfo;
import io.hybris.WriteConflictException;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Does the change feed tell the truth under the commit rule's races (docs/protocol.md PUT step 4, DELETE,
 * conditional writes; docs/changes.md)? Three clients of two threads each race plain PUTs (small, in chunks, from a
 * stream), PUTs ifMatch and ifAbsent, DELETEs plain and ifMatch, and TPUTs of two keys (plain, or one key ifMatch)
 * on three shared keys, with jittered conditional updates, and in a second test with updates re-sent after lost
 * answers (simulated in front of the store). Every call's result is recorded, and each value names its call in its
 * application metadata; then the whole feed, read from {@link ChangeCursor#BEGINNING}, is checked against them key
 * by key: versions strictly increasing in timestamp order and never twice; each change exactly the
 * {@code VersionInfo} its call returned; every tombstone a DELETE returned, and every version a conditional write or
 * TPUT returned, listed; a plain PUT's version missing only if a newer plain value is listed (the PUT was ordered
 * just before one and committed nothing); no version listed that no call returned, but for calls of unknown outcome
 * (and a listed value never written by a call that failed or returned another version); every version
 * {@code describe} returned during the run listed; each TPUT's keys listed together as one commit; the last change
 * agreeing with {@code describe} and {@code get}; and the same feed seen by a subscription, a subscription to one
 * key's prefix, and pages of one to three commits resumed from cursors inside them. The same races held in a chosen
 * order at the metadata store are in this module's {@code ChangeFeedHeldRacesTest}.
 * {@code -Dhybris.feedrace.runs=N} repeats each randomized test with N seeds (default 3), from
 * {@code -Dhybris.feedrace.seed=S} (default 1); a failure names its seed.
 */
public abstract class ChangeFeedRaceContract extends HybrisContractFixture {
    private static final int CLIENTS = 3;
    private static final int THREADS_PER_CLIENT = 2;
    private static final int OPS_PER_THREAD = 120;
    private static final List<String> KEYS = List.of("k0", "k1", "k2");
    /** The application metadata naming the call that wrote a value. */
    private static final String CALL = "call";
    /** The chunk size and threshold of the writers: the smallest allowed, so that a large value is a few chunks. */
    private static final int CHUNK = 64 << 10;

    /** What a call was. */
    enum Kind { PUT, PUT_LARGE, PUT_STREAM, PUT_IF_MATCH, PUT_IF_ABSENT, DELETE, DELETE_IF_MATCH, TPUT, TPUT_IF_MATCH }

    /**
     * A call and what it returned: a version per key it wrote (empty: nothing), or that its outcome is unknown, or
     * the exception it failed with; for a {@link Kind#TPUT_IF_MATCH}, {@code ifMatchKey} is the key it wrote ifMatch
     * (the other it wrote without a precondition).
     */
    record Call(String id, Kind kind, Map<String, VersionInfo> returned, boolean unknown, String failure,
                String ifMatchKey) {
    }

    /** A version's timestamp order (sequence, client id, write id), as {@code Timestamp} orders them. */
    static final Comparator<VersionInfo> TIMESTAMP_ORDER = Comparator.comparingLong(VersionInfo::sequence)
            .thenComparing(VersionInfo::clientId).thenComparingLong(ChangeFeedRaceContract::writeId);

    static long writeId(VersionInfo v) {
        String s = v.version();
        int dot = s.lastIndexOf('.');
        return dot < 0 || dot < s.indexOf('_') ? -1 : Long.parseLong(s.substring(dot + 1), 36);
    }

    // ------------------------------------------------------------------ randomized

    private long overwritten;
    private long retried;
    private long unknownOutcomes;
    /** The versions {@code describe} returned during a run, as {@code key version}. */
    private final Set<String> observed = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Test
    void theFeedAgreesWithEveryCallUnderRacingPlainConditionalAndTransactionalWrites() throws Exception {
        int runs = Integer.getInteger("hybris.feedrace.runs", 3);
        long seed0 = Long.getLong("hybris.feedrace.seed", 1L);
        for (int run = 0; run < runs; run++) {
            if (run > 0) {
                renewStores();
            }
            runOnce(seed0 + run, false);
        }
        // the runs met the commit rule's races: writes ordered before a newer one, and writes retried after one
        assertThat(overwritten).as("writes overwritten at their commit in %d runs", runs).isPositive();
        assertThat(retried).as("writes retried at their commit in %d runs", runs).isPositive();
    }

    /**
     * {@code delegate}, pausing about half of the conditional updates for up to 2 ms first, so that more writes
     * read a version and meet a newer one at their commit (jitter to widen the races, never to order them).
     */
    private static MetadataStore jittered(MetadataStore delegate, long seed, boolean resending) {
        Random jitter = new Random(seed);
        return new ForwardingMetadataStore(delegate) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                send(() -> super.conditionalUpdate(update));
            }

            @Override
            public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
                send(() -> super.conditionalUpdateAll(updates));
            }

            /**
             * Sends an update; re-sending, one in eight lands and then, its answer lost, is sent again and
             * conflicts with itself (after a pause in which others may commit), and one in eight is a re-send
             * whose first send never arrived: both conflicts say that the update may have applied.
             */
            private void send(Update update) throws VersionConflictException {
                int mode;
                synchronized (jitter) {
                    mode = !resending ? 0 : jitter.nextInt(8);
                }
                pause();
                try {
                    update.send();
                } catch (VersionConflictException conflict) {
                    if (mode == 2) {
                        throw new VersionConflictException("re-sent: " + conflict.getMessage(), conflict, true);
                    }
                    throw conflict;
                }
                if (mode == 1) {
                    pause();
                    throw new VersionConflictException("the answer was lost and the re-sent update conflicted",
                            null, true);
                }
            }

            private void pause() {
                long nanos;
                synchronized (jitter) {
                    nanos = jitter.nextBoolean() ? jitter.nextInt(2_000_000) : 0;
                }
                if (nanos > 0) {
                    LockSupport.parkNanos(nanos);
                }
            }
        };
    }

    /** A conditional update, single or atomic. */
    private interface Update {
        void send() throws VersionConflictException;
    }

    /**
     * The same, with conditional updates re-sent after lost answers (simulated in front of the store, as a store
     * that re-sends does: {@link ResentUpdateContract}): some calls then end with an unknown outcome, and the feed
     * must still list exactly what committed, and only what a call returned or one of unknown outcome wrote.
     */
    @Test
    void theFeedAgreesWithEveryCallWhenUpdatesAreReSentAfterLostAnswers() throws Exception {
        int runs = Integer.getInteger("hybris.feedrace.runs", 3);
        long seed0 = Long.getLong("hybris.feedrace.seed", 1L);
        for (int run = 0; run < runs; run++) {
            if (run > 0) {
                renewStores();
            }
            runOnce(seed0 + run, true);
        }
        assertThat(unknownOutcomes).as("calls of unknown outcome in %d runs", runs).isPositive();
    }

    private void runOnce(long seed, boolean resending) throws Exception {
        observed.clear();
        List<Hybris> hs = new ArrayList<>();
        EventRecorder events = new EventRecorder();
        MetadataStore jittered = jittered(metadata, seed, resending);
        for (int c = 0; c < CLIENTS; c++) {
            hs.add(open(config(raw).clientId("w" + c).metadataStore(jittered).listener(events)
                    .chunkThreshold(CHUNK).chunkSize(CHUNK)));
        }
        Hybris reader = open(config(raw).clientId("reader"));
        List<Change> subscribed = new CopyOnWriteArrayList<>();
        ChangeSubscription sub = reader.subscribe(C, "", ChangeCursor.BEGINNING, new ChangeListener() {
            @Override
            public void onChange(Change change) {
                subscribed.add(change);
            }
        });
        List<Change> subscribedK1 = new CopyOnWriteArrayList<>();
        ChangeSubscription subK1 = reader.subscribe(C, "k1", ChangeCursor.BEGINNING, new ChangeListener() {
            @Override
            public void onChange(Change change) {
                subscribedK1.add(change);
            }
        });
        List<Call> calls = new CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS * THREADS_PER_CLIENT);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < CLIENTS * THREADS_PER_CLIENT; t++) {
                Hybris h = hs.get(t % CLIENTS);
                Random random = new Random(seed * 1_000 + t);
                String thread = "t" + t;
                futures.add(pool.submit(() -> {
                    Map<String, String> seen = new HashMap<>(); // a version this thread saw, maybe stale by now
                    for (int i = 0; i < OPS_PER_THREAD; i++) {
                        calls.add(step(h, thread + "-" + i, random, seen));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        List<Change> feed = wholeFeed(reader);
        String races = java.util.Arrays.stream(ConflictResolution.values())
                .map(r -> r + "=" + events.casConflicts(r)).collect(Collectors.joining(", "));
        Map<String, Long> failures = calls.stream().filter(c -> c.failure() != null && !c.unknown())
                .collect(Collectors.groupingBy(Call::failure, java.util.TreeMap::new, Collectors.counting()));
        System.out.printf("change feed race, seed %d: %d calls, %d changes, %d unknown, failed %s; conflicts: %s%n",
                seed, calls.size(), feed.size(), calls.stream().filter(Call::unknown).count(), failures, races);
        overwritten += events.casConflicts(ConflictResolution.OVERWRITTEN);
        retried += events.casConflicts(ConflictResolution.RETRY);
        unknownOutcomes += calls.stream().filter(Call::unknown).count();
        String context = "seed " + seed + (resending ? ", re-sending" : "") + " (-Dhybris.feedrace.seed=" + seed
                + " -Dhybris.feedrace.runs=1; "
                + races + ")\n" + describe(calls, feed);
        try {
            check(calls, feed, reader, context);
            await().atMost(AWAIT).until(() -> subscribed.size() >= feed.size());
            assertThat(subscribed).as("the subscription's changes (%s)", context).isEqualTo(feed);
            List<Change> k1 = feed.stream().filter(c -> c.key().equals("k1")).toList();
            await().atMost(AWAIT).until(() -> subscribedK1.size() >= k1.size());
            assertThat(subscribedK1).as("the subscription to k1's changes (%s)", context).isEqualTo(k1);
            assertThat(smallPages(reader, new Random(seed))).as("the feed read in small pages (%s)", context)
                    .isEqualTo(feed);
        } finally {
            sub.close();
            subK1.close();
        }
    }

    private Call step(Hybris h, String id, Random random, Map<String, String> seen) {
        String key = KEYS.get(random.nextInt(KEYS.size()));
        int dice = random.nextInt(12);
        Kind kind = dice < 3 ? Kind.PUT : dice < 5 ? Kind.PUT_IF_MATCH : dice < 6 ? Kind.PUT_IF_ABSENT
                : dice < 8 ? Kind.DELETE : dice < 10 ? Kind.DELETE_IF_MATCH : Kind.TPUT;
        Map<String, VersionInfo> returned = new LinkedHashMap<>();
        if (kind == Kind.TPUT && random.nextBoolean()) {
            kind = Kind.TPUT_IF_MATCH;
        }
        if (kind == Kind.PUT && random.nextInt(6) == 0) { // a value in chunks: given whole, or as a stream
            kind = random.nextBoolean() ? Kind.PUT_LARGE : Kind.PUT_STREAM;
        }
        try {
            switch (kind) {
                case PUT -> returned.put(key, h.put(C, key, bytes(id), tagged(PutOptions.none(), id)));
                case PUT_LARGE -> returned.put(key, h.put(C, key, large(id), tagged(PutOptions.none(), id)));
                case PUT_STREAM -> {
                    byte[] value = large(id);
                    returned.put(key, h.put(C, key, new java.io.ByteArrayInputStream(value), value.length,
                            tagged(PutOptions.none(), id)));
                }
                case PUT_IF_MATCH -> returned.put(key, h.put(C, key, bytes(id),
                        tagged(PutOptions.ifMatch(match(h, key, random, seen)), id)));
                case PUT_IF_ABSENT -> returned.put(key, h.put(C, key, bytes(id),
                        tagged(PutOptions.ifAbsent(), id)));
                case DELETE -> h.delete(C, key).ifPresent(v -> returned.put(key, v));
                case DELETE_IF_MATCH -> h.delete(C, key, DeleteOptions.ifMatch(match(h, key, random, seen)))
                        .ifPresent(v -> returned.put(key, v));
                case TPUT, TPUT_IF_MATCH -> {
                    String other = KEYS.get((KEYS.indexOf(key) + 1 + random.nextInt(KEYS.size() - 1)) % KEYS.size());
                    Map<String, byte[]> values = new LinkedHashMap<>();
                    values.put(key, bytes(id));
                    values.put(other, bytes(id));
                    Map<String, PutOptions> options = Map.of(
                            key, tagged(kind == Kind.TPUT ? PutOptions.none()
                                    : PutOptions.ifMatch(match(h, key, random, seen)), id),
                            other, tagged(PutOptions.none(), id));
                    returned.putAll(h.tput(C, values, options));
                }
                default -> throw new AssertionError(kind);
            }
            returned.forEach((k, v) -> seen.put(k, v.version()));
            return new Call(id, kind, returned, false, null, kind == Kind.TPUT_IF_MATCH ? key : null);
        } catch (WriteConflictException | TransactionAbortedException lost) {
            return new Call(id, kind, Map.of(), false, lost.getClass().getSimpleName(), null);
        } catch (MetadataUnavailableException unknown) {
            return new Call(id, kind, Map.of(), true, unknown.toString(), null);
        } catch (RuntimeException other) {
            throw new AssertionError("call " + id + " (" + kind + " of " + key + ") failed unexpectedly", other);
        }
    }

    /** A value of three chunks and a bit (see {@link #CHUNK}), its bytes starting with {@code id}. */
    private static byte[] large(String id) {
        byte[] value = new byte[3 * CHUNK + 100];
        byte[] head = bytes(id);
        System.arraycopy(head, 0, value, 0, head.length);
        return value;
    }

    /** {@code options} naming the call that writes the value, in the version's application metadata. */
    private static PutOptions tagged(PutOptions options, String id) {
        return options.withMetadata(Map.of(CALL, id));
    }

    /** The version to write ifMatch: the current one mostly, sometimes one this thread saw before (maybe stale). */
    private String match(Hybris h, String key, Random random, Map<String, String> seen) {
        if (random.nextInt(4) == 0 && seen.containsKey(key)) {
            return seen.get(key);
        }
        Optional<VersionInfo> now = h.describe(C, key);
        if (now.isEmpty()) {
            return seen.getOrDefault(key, "1_nobody.0");
        }
        seen.put(key, now.get().version());
        observed.add(key + " " + now.get().version());
        return now.get().version();
    }

    static List<Change> wholeFeed(Hybris h) {
        List<Change> all = new ArrayList<>();
        ChangeCursor cursor = ChangeCursor.BEGINNING;
        while (true) {
            ChangePage page = h.changes(C, "", cursor, 10_000);
            all.addAll(page.changes());
            cursor = page.cursor();
            if (!page.hasMore()) {
                return all;
            }
        }
    }

    /**
     * The whole feed read in pages of 1 to 3 commits, each page from a cursor parsed back from its text, and now and
     * then resumed from the cursor of a change inside the page (inside a TPUT too).
     */
    private static List<Change> smallPages(Hybris h, Random random) {
        List<Change> all = new ArrayList<>();
        ChangeCursor cursor = ChangeCursor.BEGINNING;
        while (true) {
            ChangePage page = h.changes(C, "", ChangeCursor.parse(cursor.toString()), 1 + random.nextInt(3));
            if (!page.changes().isEmpty() && random.nextInt(4) == 0) {
                int upTo = random.nextInt(page.changes().size());
                all.addAll(page.changes().subList(0, upTo + 1));
                cursor = page.changes().get(upTo).cursor();
                continue;
            }
            all.addAll(page.changes());
            cursor = page.cursor();
            if (!page.hasMore()) {
                return all;
            }
        }
    }

    /** Whether {@code c} wrote {@code key} without a precondition (so it did not observe the version it replaced). */
    private static boolean plain(Call c, String key) {
        return c.kind() == Kind.PUT || c.kind() == Kind.PUT_LARGE || c.kind() == Kind.PUT_STREAM
                || c.kind() == Kind.TPUT || (c.kind() == Kind.TPUT_IF_MATCH && !key.equals(c.ifMatchKey()));
    }

    private static boolean conditionalOrTransactional(Call c) {
        return c.kind() == Kind.PUT_IF_MATCH || c.kind() == Kind.PUT_IF_ABSENT || c.kind() == Kind.DELETE_IF_MATCH
                || c.kind() == Kind.TPUT || c.kind() == Kind.TPUT_IF_MATCH;
    }

    private void check(List<Call> calls, List<Change> feed, Hybris reader, String context) {
        Map<String, Call> byVersion = new HashMap<>(); // the call that returned a version
        for (Call c : calls) {
            c.returned().forEach((k, v) -> {
                Call before = byVersion.put(k + " " + v.version(), c);
                assertThat(before).as("version %s of %s returned by two calls (%s)", v.version(), k, context)
                        .isNull();
            });
        }
        long unknown = calls.stream().filter(Call::unknown).count();
        Map<String, Call> byId = calls.stream().collect(Collectors.toMap(Call::id, c -> c));
        Map<String, List<VersionInfo>> perKey = new LinkedHashMap<>();
        KEYS.forEach(k -> perKey.put(k, new ArrayList<>()));
        for (Change ch : feed) {
            perKey.computeIfAbsent(ch.key(), k -> new ArrayList<>()).add(ch.version());
        }
        long foreign = 0;
        for (Map.Entry<String, List<VersionInfo>> e : perKey.entrySet()) {
            String key = e.getKey();
            List<VersionInfo> versions = e.getValue();
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < versions.size(); i++) {
                VersionInfo v = versions.get(i);
                // (5) no version twice
                assertThat(ids.add(v.version())).as("%s: version %s listed twice (%s)", key, v.version(), context)
                        .isTrue();
                // (1) strictly increasing timestamps
                if (i > 0) {
                    assertThat(TIMESTAMP_ORDER.compare(versions.get(i - 1), v))
                            .as("%s: %s listed after %s (%s)", key, v.version(), versions.get(i - 1).version(),
                                    context)
                            .isNegative();
                }
                Call by = byVersion.get(key + " " + v.version());
                if (by == null) {
                    foreign++;
                    // a value names its call: one whose outcome is unknown, never one that failed or returned
                    // another version (the first attempt of a PUT put again)
                    String writer = v.metadata().get(CALL);
                    if (!v.isDeletion()) {
                        Call c = byId.get(writer);
                        assertThat(c != null && c.unknown())
                                .as("%s: version %s, listed, was written by call %s, which did not return it: %s (%s)",
                                        key, v.version(), writer, c, context)
                                .isTrue();
                    }
                } else {
                    // the change is exactly what the call returned (deletion flag included)
                    assertThat(v).as("%s: the change of %s vs what call %s returned (%s)", key, v.version(),
                            by.id(), context).isEqualTo(by.returned().get(key));
                }
            }
            // (4) the last change agrees with describe and get
            Optional<VersionInfo> now = reader.describe(C, key);
            VersionInfo last = versions.isEmpty() ? null : versions.get(versions.size() - 1);
            if (last == null || last.isDeletion()) {
                assertThat(now).as("%s: describe after the last change %s (%s)", key, last, context).isEmpty();
                assertThat(reader.get(C, key)).as("%s: get after the last change %s", key, last).isEmpty();
            } else {
                assertThat(now.map(VersionInfo::version)).as("%s: describe vs the last change (%s)", key, context)
                        .hasValue(last.version());
                assertThat(reader.get(C, key)).as("%s: get after the last change", key).isPresent();
            }
        }
        // each TPUT one commit: its keys listed together, in the order of its map; and every other call's change a
        // commit of its own
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < feed.size(); i++) {
            position.put(feed.get(i).key() + " " + feed.get(i).version().version(), i);
        }
        for (Call c : calls) {
            List<Map.Entry<String, VersionInfo>> keys = new ArrayList<>(c.returned().entrySet());
            if (keys.size() < 2) {
                continue;
            }
            Integer first = position.get(keys.get(0).getKey() + " " + keys.get(0).getValue().version());
            assertThat(first).as("%s: its first key's change (%s)", c.id(), context).isNotNull();
            for (int k = 1; k < keys.size(); k++) {
                Change ch = feed.get(first + k);
                assertThat(ch.key() + " " + ch.version().version()).as("%s: its keys listed together (%s)", c.id(),
                        context).isEqualTo(keys.get(k).getKey() + " " + keys.get(k).getValue().version());
            }
            ChangeCursor inside = feed.get(first).cursor();
            assertThat(inside.skip()).as("%s: the cursor after its first key (%s)", c.id(), context).isEqualTo(1);
            assertThat(feed.get(first + keys.size() - 1).cursor())
                    .as("%s: the cursor after its last key (%s)", c.id(), context)
                    .isEqualTo(new ChangeCursor(inside.commit() + 1, 0));
        }
        for (int i = 1; i < feed.size(); i++) {
            ChangeCursor before = feed.get(i - 1).cursor();
            ChangeCursor after = feed.get(i).cursor();
            assertThat(after.commit() > before.commit()
                    || (after.commit() == before.commit() && after.skip() > before.skip())
                    || (before.skip() > 0 && after.commit() == before.commit() + 1 && after.skip() == 0))
                    .as("cursor %s after %s (%s)", after, before, context).isTrue();
        }
        // a version a read returned committed: it is listed
        for (String o : observed) {
            assertThat(position).as("%s, which describe returned, is listed (%s)", o, context).containsKey(o);
        }
        // (3) no change no call returned, but for unknown outcomes
        assertThat(foreign).as("changes whose version no call returned, beside %d unknown outcomes (%s)", unknown,
                context).isLessThanOrEqualTo(unknown);
        // (2) every version a call returned: listed once; a plain PUT's missing only just before a newer plain value
        for (Call c : calls) {
            for (Map.Entry<String, VersionInfo> r : c.returned().entrySet()) {
                List<VersionInfo> versions = perKey.get(r.getKey());
                VersionInfo v = r.getValue();
                boolean listed = versions.stream().anyMatch(x -> x.version().equals(v.version()));
                if (v.isDeletion() || conditionalOrTransactional(c)) {
                    assertThat(listed).as("%s's %s of %s returned %s: its change is missing (%s)", c.id(),
                            c.kind(), r.getKey(), v.version(), context).isTrue();
                    continue;
                }
                if (!listed) {
                    // a plain PUT ordered just before the newer plain value it lost to (not necessarily the next
                    // change in timestamp order: deletions and conditional writes may have committed between)
                    List<VersionInfo> later = versions.stream().filter(x -> TIMESTAMP_ORDER.compare(x, v) > 0)
                            .toList();
                    assertThat(later.stream().anyMatch(x -> !x.isDeletion()
                                    && byVersion.get(r.getKey() + " " + x.version()) != null
                                    && plain(byVersion.get(r.getKey() + " " + x.version()), r.getKey())))
                            .as("%s's PUT of %s returned %s, not listed, and no newer plain value is (%s)", c.id(),
                                    r.getKey(), v.version(), context)
                            .isTrue();
                }
            }
        }
    }

    private static String describe(List<Call> calls, List<Change> feed) {
        StringBuilder b = new StringBuilder("calls:\n");
        calls.stream().sorted(Comparator.comparing(Call::id)).forEach(c -> b.append("  ").append(c.id()).append(' ')
                .append(c.kind()).append(' ').append(c.returned().entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue().version() + (e.getValue().isDeletion() ? "(del)" : ""))
                        .collect(Collectors.joining(","))).append(c.unknown() ? " UNKNOWN" : "")
                .append(c.failure() != null ? " " + c.failure() : "").append('\n'));
        b.append("feed:\n");
        feed.forEach(ch -> b.append("  ").append(ch.key()).append(' ').append(ch.version().version())
                .append(ch.isDeletion() ? " (del)" : "").append('\n'));
        return b.length() > 200_000 ? b.substring(b.length() - 200_000) : b.toString();
    }
}
