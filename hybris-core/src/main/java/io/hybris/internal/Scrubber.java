/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.KeyHealth;
import io.hybris.KeyHealth.Status;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scrub, repair and migration (docs/scrub.md). Per container: one listing of each cloud (the object names and sizes
 * under the container), then the metadata entries page by page; each current version's expected copies
 * ({@link ScrubPiece}: the value, or a chunked value's manifest and chunks) are checked against the listings (a copy
 * missing there is confirmed by a listing of its exact name, as a version committed after the listing would look
 * missing), or, for a deep scrub, downloaded and hash-checked. Repair rebuilds a bad copy from good ones (a replica,
 * or {@code k} fragments decoded and re-encoded) onto the cloud it was on, or, when that cloud refuses it, onto
 * another cloud recorded by a conditional update of the version's metadata; a concurrent write wins (the rebuilt copy
 * is then an orphan for the sweep). A chunk of a chunked value cannot move without a new manifest: such a value is
 * rewritten as a new version, conditional on the old one. Migration moves every copy off one cloud the same way.
 * Resumable from the state file after each page; paced by a {@link RateLimiter}. Thread-safe per run (each run keeps
 * its state on its stack).
 */
final class Scrubber {
    private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);
    static final int BUCKETS = 1024;
    private static final int PAGE = 1000;

    /** Rewrites a chunked value as a new version with the same bytes, conditional on {@code meta}'s version. */
    interface Rewriter {
        /** True once rewritten; false if a concurrent write replaced the version first. */
        boolean rewrite(String container, String key, Metadata meta);
    }

    private enum Verdict { OK, MISSING, CORRUPT, UNCHECKED, MOVE }

    private final MetadataStore store;
    private final MetadataCalls metadata;
    private final Map<String, CloudStore> clouds;
    private final List<String> cloudOrder;
    private final CloudPreference preference;
    private final Layouts layouts;
    private final String prefix;
    private final Duration deadline;
    private final Rewriter rewriter;

    Scrubber(MetadataStore store, MetadataCalls metadata, Map<String, CloudStore> clouds, List<String> cloudOrder,
             CloudPreference preference, Layouts layouts, String prefix, Duration deadline, Rewriter rewriter) {
        this.store = store;
        this.metadata = metadata;
        this.clouds = clouds;
        this.cloudOrder = cloudOrder;
        this.preference = preference;
        this.layouts = layouts;
        this.prefix = prefix;
        this.deadline = deadline;
        this.rewriter = rewriter;
    }

    /** A scrub ({@code migrateFrom} null) or a migration of every copy off {@code migrateFrom} onto {@code to}. */
    ScrubReport run(ScrubOptions o, String migrateFrom, String to) {
        if (migrateFrom != null) {
            for (String id : List.of(migrateFrom, to)) {
                if (!clouds.containsKey(id)) {
                    throw new InvalidRequestException("migrate: cloud '" + id + "' is not configured (clouds: "
                            + cloudOrder + ")");
                }
            }
            if (migrateFrom.equals(to)) {
                throw new InvalidRequestException("migrate: from and to are the same cloud '" + to + "'");
            }
        }
        ScrubState state = ScrubState.load(o.stateFile().orElse(null), (migrateFrom == null ? "scrub"
                : "migrate " + migrateFrom + " " + to) + " prefix=" + o.prefix() + " deep=" + o.deep() + " repair="
                + o.repair());
        Run run = new Run(o, state, new RateLimiter(o.requestsPerSecond(), o.bytesPerSecond()), migrateFrom, to);
        List<String> containers = o.containers().isEmpty()
                ? metadata.listing(Deadline.after(deadline), "list of containers", store::containers)
                : o.containers();
        boolean complete = true;
        for (String container : containers) {
            Names.checkContainer(container);
            if (!state.containerDone(container)) {
                complete &= run.container(container);
            }
        }
        if (complete) {
            state.runComplete();
        }
        state.save();
        ScrubReport report = run.totals.report(complete);
        LOG.info("{}: {}", migrateFrom == null ? "scrub" : "migration " + migrateFrom + " -> " + to, report);
        return report;
    }

    /** The bucket of a key, for the listing digests. */
    static int bucket(String container, String key) {
        return (int) (fnv(container + "/" + key) & (BUCKETS - 1));
    }

    private static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** Running totals of one run. */
    private static final class Totals {
        long checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing, corrupt, copiesRepaired,
                bytesRead, bytesWritten;

        void add(KeyHealth h, int missingCopies, int corruptCopies, int repairedCopies) {
            checked++;
            missing += missingCopies;
            corrupt += corruptCopies;
            copiesRepaired += repairedCopies;
            switch (h.status()) {
                case HEALTHY -> healthy++;
                case REPAIRED -> repaired++;
                case DEGRADED -> degraded++;
                case UNRECOVERABLE -> unrecoverable++;
                case SUPERSEDED -> superseded++;
                default -> throw new IllegalStateException(h.status().toString());
            }
        }

        ScrubReport report(boolean complete) {
            return new ScrubReport(checked, skipped, healthy, repaired, degraded, unrecoverable, superseded, missing,
                    corrupt, copiesRepaired, bytesRead, bytesWritten, complete);
        }
    }

    /** One run: its options, state, pacing and totals. */
    private final class Run {
        final ScrubOptions o;
        final ScrubState state;
        final RateLimiter rate;
        final String from;
        final String to;
        final boolean repair;
        final Totals totals = new Totals();
        /** Per cloud, the object sizes listed under the current container; absent for a cloud that failed to list. */
        final Map<String, Map<String, Long>> listings = new HashMap<>();

        Run(ScrubOptions o, ScrubState state, RateLimiter rate, String from, String to) {
            this.o = o;
            this.state = state;
            this.rate = rate;
            this.from = from;
            this.to = to;
            this.repair = o.repair() || from != null;
        }

        /** Scrubs one container; false if some cloud could not be listed (the container is then not done). */
        boolean container(String container) {
            listings.clear();
            Map<String, long[]> digests = new HashMap<>();
            String listPrefix = prefix + container + "/";
            for (Map.Entry<String, CloudStore> c : clouds.entrySet()) {
                rate.acquire(0);
                try {
                    Map<String, Long> sizes = new HashMap<>();
                    long[] digest = new long[BUCKETS];
                    for (CloudObject obj : c.getValue().list(listPrefix)) {
                        sizes.put(obj.key(), obj.size());
                        ObjectKey.parse(prefix, obj.key()).or(() -> ObjectKey.parseChunk(prefix, obj.key()))
                                .ifPresent(k -> digest[bucket(container, k.key())] += fnv(obj.key() + "|" + obj.size()));
                    }
                    listings.put(c.getKey(), sizes);
                    digests.put(c.getKey(), digest);
                } catch (RuntimeException e) {
                    LOG.warn("scrub of {}: cloud {} could not be listed; its copies are unchecked: {}", container,
                            c.getKey(), e.toString());
                }
            }
            boolean allListed = listings.size() == clouds.size();
            boolean useDigests = allListed && !o.deep() && from == null && o.prefix().isEmpty();
            boolean[] dirty = new boolean[BUCKETS];
            for (int b = 0; b < BUCKETS; b++) {
                dirty[b] = !useDigests;
                for (String cloud : clouds.keySet()) {
                    Long verified = state.verified(container, cloud, b);
                    dirty[b] |= verified == null || !useDigests || verified != digests.get(cloud)[b];
                }
            }
            boolean[] unhealthy = new boolean[BUCKETS];
            String after = state.cursor(container).orElse(null);
            // resumed after a stop: the keys before the cursor were checked by a run whose findings are not known
            // here, so no bucket's listing is recorded as verified (the next scrub checks them all again)
            boolean resumed = after != null;
            while (true) {
                String start = after;
                MetadataPage page = metadata.listing(Deadline.after(deadline), "scrub listing of " + container,
                        () -> store.list(container, o.prefix(), start, PAGE));
                for (MetadataEntry e : page.entries()) {
                    after = e.key();
                    Metadata meta = MetadataCodec.decode(e.value());
                    if (meta.isTombstone()) {
                        continue;
                    }
                    int b = bucket(container, e.key());
                    if (!dirty[b]) {
                        totals.skipped++;
                        continue;
                    }
                    KeyHealth h = key(container, e, meta);
                    unhealthy[b] |= h.status() != Status.HEALTHY && h.status() != Status.SUPERSEDED;
                    o.listener().key(h);
                }
                if (after != null) {
                    state.cursor(container, after);
                }
                state.save();
                o.listener().progress(container, totals.report(false));
                if (!page.hasMore()) {
                    break;
                }
            }
            for (int b = 0; b < BUCKETS && o.prefix().isEmpty() && allListed; b++) {
                for (String cloud : clouds.keySet()) {
                    if (unhealthy[b] || from != null || resumed) {
                        state.forget(container, cloud, b);
                    } else {
                        state.verified(container, cloud, b, digests.get(cloud)[b]);
                    }
                }
            }
            state.containerDone(container, allListed);
            state.save();
            return allListed;
        }

        /** Checks (and repairs) one key's current version. */
        KeyHealth key(String container, MetadataEntry entry, Metadata meta) {
            String key = entry.key();
            String version = meta.toVersionInfo().version();
            String name = new ObjectKey(container, key, meta.timestamp()).render(prefix);
            Check check = new Check();
            List<ScrubPiece> pieces = new ArrayList<>();
            ScrubPiece top = new ScrubPiece(name, meta.clouds(), meta.size(), meta.sha256(), meta.erasure(), true);
            pieces.add(top);
            if (meta.isChunked()) {
                Verdict[] v = verdicts(top, check);
                byte[] manifest = replica(top, v, check);
                if (manifest == null) {
                    return unrecoverable(container, key, version, meta, check,
                            "no copy of its chunk manifest matches the metadata hash");
                }
                ChunkManifest m = ChunkManifest.decode(manifest);
                ObjectKey ok = new ObjectKey(container, key, meta.timestamp());
                for (int i = 0; i < m.chunks().size(); i++) {
                    ChunkManifest.Chunk c = m.chunks().get(i);
                    pieces.add(new ScrubPiece(ok.renderChunk(prefix, m.nameIndex(i)), c.clouds(), c.storedSize(), c.sha256(),
                            c.erasure(), false));
                }
                check.cachedVerdicts.put(top, v);
            }
            Map<Integer, String> moves = new HashMap<>();
            boolean rewrite = false;
            for (ScrubPiece p : pieces) {
                Verdict[] v = check.cachedVerdicts.containsKey(p) ? check.cachedVerdicts.get(p) : verdicts(p, check);
                if (!check.hasBad(v) || !repair) {
                    continue;
                }
                String unrecoverable = rebuild(p, v, check, p.topLevel() ? moves : null);
                if (unrecoverable != null) {
                    return unrecoverable(container, key, version, meta, check, unrecoverable);
                }
                rewrite |= check.needsMove;
                check.needsMove = false;
            }
            if (!check.bad()) {
                return done(container, key, version, check, Status.HEALTHY, "");
            }
            if (!repair) {
                return done(container, key, version, check, Status.DEGRADED, "");
            }
            if (!moves.isEmpty() && !placed(container, key, meta, entry.version(), moves)) {
                return done(container, key, version, check, Status.SUPERSEDED,
                        "a concurrent write replaced the version; the rebuilt copies are orphans for the sweep");
            }
            if (rewrite) {
                if (!rewriter.rewrite(container, key, meta)) {
                    return done(container, key, version, check, Status.SUPERSEDED,
                            "a concurrent write replaced the version before it could be rewritten");
                }
                check.repairedOn.add("(rewritten as a new version)");
            }
            return done(container, key, version, check, check.unrepaired ? Status.DEGRADED : Status.REPAIRED,
                    check.unrepaired ? "some copies could not be rebuilt: no cloud accepted them" : "");
        }

        /**
         * UNRECOVERABLE — unless a write replaced the version while it was checked (its copies then went to GC, which
         * is no loss): SUPERSEDED. The metadata is read again to tell; if that read fails, the verdict stands.
         */
        private KeyHealth unrecoverable(String container, String key, String version, Metadata meta, Check check,
                                        String detail) {
            try {
                Current now = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
                if (now.meta() == null || !now.meta().timestamp().equals(meta.timestamp())) {
                    return done(container, key, version, check, Status.SUPERSEDED, "a concurrent write replaced"
                            + " the version while it was checked (its copies were collected): " + detail);
                }
            } catch (RuntimeException e) {
                LOG.warn("scrub: {}/{} could not be read again to tell a lost version from a replaced one: {}",
                        container, key, e.toString());
            }
            return done(container, key, version, check, Status.UNRECOVERABLE, detail);
        }

        /**
         * Records the rebuilt copies' clouds ({@code moves}: position in the placement to new cloud) in the key's
         * metadata, conditionally; false if a write replaced the version (or moved its copies) meanwhile. A conflict
         * with a change that kept the version and its placement (a KEK re-wrap) is retried on the new entry: it
         * used to be reported SUPERSEDED, the lost copy left listed and the rebuilt one an orphan.
         */
        private boolean placed(String container, String key, Metadata meta, MetadataVersion listedAt,
                               Map<Integer, String> moves) {
            MetadataKey mk = new MetadataKey(container, key);
            Metadata base = meta;
            MetadataVersion expected = listedAt;
            for (int attempt = 0; ; attempt++) {
                List<String> moved = new ArrayList<>(base.clouds());
                moves.forEach(moved::set);
                Metadata updated = new Metadata(base.timestamp(), moved, base.sha256(), base.size(), base.encryption(),
                        base.cacheCounter(), base.erasure(), base.chunked(), base.userMetadata());
                try {
                    metadata.conditionalUpdate(new MetadataUpdate(mk, MetadataCodec.encode(updated), expected),
                            Deadline.after(deadline), "scrub: placement of " + container + "/" + key);
                    return true;
                } catch (VersionConflictException e) {
                    if (e.mayHaveApplied() && landed(container, key, updated)) {
                        return true; // a re-sent update whose first send landed
                    }
                    Current now = metadata.read(mk, Deadline.after(deadline));
                    if (attempt >= 4 || now.meta() == null || !now.meta().timestamp().equals(meta.timestamp())
                            || !now.meta().clouds().equals(meta.clouds())) {
                        return false;
                    }
                    base = now.meta();
                    expected = now.version();
                }
            }
        }

        /** Whether the key's metadata now is exactly {@code updated} (a re-sent placement update that landed). */
        private boolean landed(String container, String key, Metadata updated) {
            Current now = metadata.read(new MetadataKey(container, key), Deadline.after(deadline));
            return now.meta() != null && Arrays.equals(MetadataCodec.encode(now.meta()), MetadataCodec.encode(updated));
        }

        private KeyHealth done(String container, String key, String version, Check c, Status status, String detail) {
            if (status == Status.UNRECOVERABLE) {
                LOG.error("scrub: {}/{} version {} is unrecoverable: {} (missing on {}, corrupt on {})", container,
                        key, version, detail, c.missingOn, c.corruptOn);
            }
            KeyHealth h = new KeyHealth(container, key, version, status, List.copyOf(new HashSet<>(c.missingOn)),
                    List.copyOf(new HashSet<>(c.corruptOn)), List.copyOf(new HashSet<>(c.uncheckedOn)),
                    c.repairedOn, detail);
            totals.add(h, c.missingOn.size(), c.corruptOn.size(), c.repairedCopies);
            return h;
        }

        /** The verdict on each copy of {@code p}. */
        Verdict[] verdicts(ScrubPiece p, Check c) {
            Verdict[] v = new Verdict[p.clouds().size()];
            for (int i = 0; i < v.length; i++) {
                String cloud = p.clouds().get(i);
                CloudStore store = clouds.get(cloud);
                if (store == null || !listings.containsKey(cloud)) {
                    v[i] = Verdict.UNCHECKED;
                } else if (o.deep()) {
                    v[i] = fetch(p, i, c) != null ? Verdict.OK : c.lastVerdict;
                } else {
                    Long size = listings.get(cloud).get(p.name());
                    if (size == null || size != p.copySize(i)) {
                        size = confirm(store, p.name()); // committed after the listing?
                    }
                    v[i] = size == null ? Verdict.MISSING : size == p.copySize(i) ? Verdict.OK : Verdict.CORRUPT;
                }
                if (v[i] == Verdict.MISSING) {
                    c.missingOn.add(cloud);
                } else if (v[i] == Verdict.CORRUPT) {
                    c.corruptOn.add(cloud);
                } else if (v[i] == Verdict.UNCHECKED) {
                    c.uncheckedOn.add(cloud);
                }
                if (cloud.equals(from)) { // migration: every copy there moves (a good one can be the source)
                    c.moving = true;
                    c.movableGood.put(p.name() + "#" + i, v[i] == Verdict.OK);
                    v[i] = Verdict.MOVE;
                }
            }
            return v;
        }

        /** The size of the object listed under exactly {@code name}, or null if there is none. */
        private Long confirm(CloudStore store, String name) {
            rate.acquire(0);
            try {
                return store.list(name).stream().filter(x -> x.key().equals(name)).map(CloudObject::size).findFirst()
                        .orElse(null);
            } catch (RuntimeException e) {
                return null;
            }
        }

        /** Copy {@code i} of {@code p}, verified (cached per check), or null with the verdict in {@code c}. */
        byte[] fetch(ScrubPiece p, int i, Check c) {
            String cacheKey = p.name() + "#" + i;
            if (c.bytes.containsKey(cacheKey)) {
                return c.bytes.get(cacheKey);
            }
            CloudStore store = clouds.get(p.clouds().get(i));
            rate.acquire(p.copySize(i));
            try {
                var got = store.get(p.name(), p.copySize(i));
                if (got.isEmpty()) {
                    c.lastVerdict = Verdict.MISSING;
                    return null;
                }
                totals.bytesRead += got.get().length;
                if (got.get().length != p.copySize(i) || !Hashing.matches(p.copySha(i), Hashing.sha256(got.get()))) {
                    c.lastVerdict = Verdict.CORRUPT;
                    return null;
                }
                c.bytes.put(cacheKey, got.get());
                return got.get();
            } catch (RuntimeException e) {
                c.lastVerdict = e instanceof io.hybris.spi.OversizedObjectException ? Verdict.CORRUPT
                        : Verdict.UNCHECKED;
                return null;
            }
        }

        /** A verified replica of a replicated piece from a copy judged good, or null. */
        byte[] replica(ScrubPiece p, Verdict[] v, Check c) {
            for (int i = 0; i < v.length; i++) {
                boolean usable = v[i] == Verdict.OK || v[i] == Verdict.MOVE
                        && c.movableGood.getOrDefault(p.name() + "#" + i, false);
                if (usable) {
                    byte[] b = fetch(p, i, c);
                    if (b != null) {
                        return b;
                    }
                    v[i] = c.lastVerdict == Verdict.MISSING ? Verdict.MISSING : Verdict.CORRUPT;
                    (v[i] == Verdict.MISSING ? c.missingOn : c.corruptOn).add(p.clouds().get(i));
                }
            }
            return null;
        }

        /**
         * Rebuilds the bad copies of {@code p}: onto the cloud each was on, else (top-level pieces, {@code moves}
         * not null) onto another cloud, recorded in {@code moves}. Returns why it is unrecoverable, or null.
         */
        String rebuild(ScrubPiece p, Verdict[] v, Check c, Map<Integer, String> moves) {
            byte[][] copies = new byte[v.length][];
            if (p.erasure() == null) {
                byte[] good = replica(p, v, c);
                if (good == null) {
                    return "no copy of " + p.name() + " matches its hash";
                }
                java.util.Arrays.fill(copies, good);
            } else {
                byte[][] fragments = new byte[v.length][];
                boolean[] present = new boolean[v.length];
                int have = 0;
                for (int i = 0; i < v.length && have < p.needed(); i++) {
                    boolean usable = v[i] == Verdict.OK || v[i] == Verdict.MOVE
                            && c.movableGood.getOrDefault(p.name() + "#" + i, false);
                    if (usable && (fragments[i] = fetch(p, i, c)) != null) {
                        present[i] = true;
                        have++;
                    }
                }
                if (have < p.needed()) {
                    return "only " + have + " of the " + p.needed() + " fragments needed for " + p.name()
                            + " match their hashes";
                }
                var coder = layouts.coders().coder(p.erasure().dataChunks(),
                        p.erasure().totalChunks() - p.erasure().dataChunks());
                byte[] value = coder.decodeValue(fragments, present, p.size());
                if (!Hashing.matches(p.sha256(), Hashing.sha256(value))) {
                    return "the fragments of " + p.name() + " decode to bytes that do not match its hash";
                }
                copies = coder.encodeValue(value);
            }
            for (int i = 0; i < v.length; i++) {
                if (v[i] != Verdict.MISSING && v[i] != Verdict.CORRUPT && v[i] != Verdict.MOVE) {
                    continue;
                }
                String was = p.clouds().get(i);
                if (v[i] != Verdict.MOVE && put(was, p.name(), copies[i])) {
                    c.repairedOn.add(was);
                    c.repairedCopies++;
                    continue;
                }
                if (moves == null) {
                    c.needsMove = true; // a chunk: only a rewrite of the value can move it
                    continue;
                }
                List<String> others = preference.order(cloudOrder, Op.WRITE, copies[i].length).stream()
                        .filter(id -> !p.clouds().contains(id) && !moves.containsValue(id) && !id.equals(from))
                        .toList();
                List<String> targets = v[i] != Verdict.MOVE || p.clouds().contains(to) || moves.containsValue(to)
                        ? others : List.of(to);
                boolean placed = false;
                for (String target : targets) {
                    if (put(target, p.name(), copies[i])) {
                        moves.put(i, target);
                        c.repairedOn.add(target);
                        c.repairedCopies++;
                        placed = true;
                        break;
                    }
                }
                c.unrepaired |= !placed;
            }
            return null;
        }

        private boolean put(String cloud, String name, byte[] bytes) {
            rate.acquire(bytes.length);
            try {
                clouds.get(cloud).put(name, bytes);
                totals.bytesWritten += bytes.length;
                return true;
            } catch (RuntimeException e) {
                LOG.debug("scrub: rebuilding {} on {} failed: {}", name, cloud, e.toString());
                return false;
            }
        }
    }

    /** What the check of one key found and did. */
    private static final class Check {
        final List<String> missingOn = new ArrayList<>();
        final List<String> corruptOn = new ArrayList<>();
        final List<String> uncheckedOn = new ArrayList<>();
        final List<String> repairedOn = new ArrayList<>();
        final Map<String, byte[]> bytes = new HashMap<>();
        final Map<String, Boolean> movableGood = new HashMap<>();
        final Map<ScrubPiece, Verdict[]> cachedVerdicts = new HashMap<>();
        Verdict lastVerdict = Verdict.UNCHECKED;
        int repairedCopies;
        boolean moving;
        boolean needsMove;
        boolean unrepaired;

        boolean hasBad(Verdict[] v) {
            for (Verdict x : v) {
                if (x == Verdict.MISSING || x == Verdict.CORRUPT || x == Verdict.MOVE) {
                    return true;
                }
            }
            return false;
        }

        boolean bad() {
            return !missingOn.isEmpty() || !corruptOn.isEmpty() || moving;
        }
    }
}
