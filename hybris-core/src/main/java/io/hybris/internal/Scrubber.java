/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;
import io.hybris.KeyHealth;
import io.hybris.KeyHealth.Status;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.internal.ScrubCheck.Verdict;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static io.hybris.internal.ListingDigest.BUCKETS;
import static io.hybris.internal.ListingDigest.bucket;

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
    private static final int PAGE = 1000;

    /** Rewrites a chunked value as a new version with the same bytes, conditional on {@code meta}'s version. */
    interface Rewriter {
        /** True once rewritten; false if a concurrent write replaced the version first. */
        boolean rewrite(String container, String key, Metadata meta);
    }

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

    /** Refuses, before any work, a scrub without options, or a migration not between two configured clouds. */
    void check(ScrubOptions o, boolean migration, String migrateFrom, String to) {
        if (o == null) {
            throw new InvalidRequestException((migration ? "migrate" : "scrub") + ": options must not be null;"
                    + " pass ScrubOptions.listing() (with deep(true) to check hashes)");
        }
        for (String id : migration ? java.util.Arrays.asList(migrateFrom, to) : List.<String>of()) {
            if (id == null || !clouds.containsKey(id)) {
                throw new InvalidRequestException("migrate: cloud '" + id + "' is not configured (clouds: "
                        + cloudOrder + ")");
            }
        }
        if (migration && migrateFrom.equals(to)) {
            throw new InvalidRequestException("migrate: from and to are the same cloud '" + to + "'");
        }
    }

    /** A scrub ({@code migrateFrom} null) or a migration of every copy off {@code migrateFrom} onto {@code to}. */
    ScrubReport run(ScrubOptions o, String migrateFrom, String to) {
        check(o, migrateFrom != null, migrateFrom, to);
        o.containers().forEach(Names::checkContainer); // all of them before any work
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
            if (state.containerDone(container)) {
                run.progress.begin(container, true); // done by a stopped run: what it found counts
            } else {
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

    /** One run: its options, state, pacing and totals. */
    private final class Run {
        final ScrubOptions o;
        final ScrubState state;
        final RateLimiter rate;
        final String from;
        final String to;
        final boolean repair;
        final ScrubTotals totals = new ScrubTotals();
        final ScrubProgress progress;
        /** Per cloud, the object sizes listed under the current container; absent for a cloud that failed to list. */
        final Map<String, Map<String, Long>> listings = new HashMap<>();
        final RepairWrites writes;

        Run(ScrubOptions o, ScrubState state, RateLimiter rate, String from, String to) {
            this.o = o;
            this.state = state;
            this.rate = rate;
            this.from = from;
            this.to = to;
            this.repair = o.repair() || from != null;
            this.progress = new ScrubProgress(state, o.listener(), totals);
            this.writes = new RepairWrites(clouds, rate, totals, listings);
        }

        /**
         * Scrubs one container; false if some cloud could not be listed, or did not answer for a copy (the container
         * is then not done).
         */
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
                                .ifPresent(k -> digest[bucket(container, k.key())]
                                        += ListingDigest.of(obj.key(), obj.size()));
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
            boolean unanswered = false;
            String after = state.cursor(container).orElse(null);
            // resumed after a stop: the keys before the cursor were checked by a run whose unhealthy buckets are not
            // known here, so no bucket's listing is recorded as verified (the next scrub checks them all again)
            boolean resumed = after != null;
            progress.begin(container, resumed);
            while (true) {
                String start = after;
                MetadataPage page = metadata.listing(Deadline.after(deadline), "scrub listing of " + container,
                        () -> store.list(container, o.prefix(), start, PAGE));
                for (MetadataEntry e : page.entries()) {
                    metadata.ensureOpen("scrub of " + container); // a page holds 1,000 keys: not run after close
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
                    boolean current = h.status() != Status.SUPERSEDED;
                    // a copy unchecked may be missing: its range is not verified, the container not done
                    unhealthy[b] |= current && (h.status() != Status.HEALTHY || !h.uncheckedOn().isEmpty());
                    unanswered |= current && h.uncheckedOn().stream().anyMatch(listings::containsKey);
                    progress.key(h);
                }
                if (after != null) {
                    state.cursor(container, after);
                }
                progress.page();
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
            state.containerDone(container, allListed && !unanswered);
            state.save();
            return allListed && !unanswered;
        }

        /** Checks (and repairs) one key's current version. */
        KeyHealth key(String container, MetadataEntry entry, Metadata meta) {
            String key = entry.key();
            String version = meta.toVersionInfo().version();
            String name = new ObjectKey(container, key, meta.timestamp()).render(prefix);
            ScrubCheck check = new ScrubCheck();
            List<ScrubPiece> pieces = new ArrayList<>();
            ScrubPiece top = new ScrubPiece(name, meta.clouds(), meta.size(), meta.sha256(), meta.erasure(), true);
            pieces.add(top);
            if (meta.isChunked()) {
                Verdict[] v = verdicts(top, check);
                byte[] manifest = replica(top, v, check);
                if (manifest == null && check.unsure(top, v) > 0) {
                    return done(container, key, version, check, check.bad() ? Status.DEGRADED : Status.HEALTHY,
                            "its chunk manifest could not be read (clouds did not answer): its chunks are unchecked");
                }
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
            if (!moves.isEmpty()) {
                writes.keepMoved(pieces.get(0).name(), moves, check);
            }
            if (rewrite) {
                try {
                    if (!rewriter.rewrite(container, key, meta)) {
                        return done(container, key, version, check, Status.SUPERSEDED,
                                "a concurrent write replaced the version before it could be rewritten");
                    }
                    check.repairedOn.add("(rewritten as a new version)");
                } catch (io.hybris.CallInterruptedException | io.hybris.ClientClosedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // this key only (it used to end the whole run); whatever may have landed stays: the next run
                    // checks the version then current
                    check.unrepaired("the value could not be rewritten to move its chunks: " + e.getMessage());
                }
            }
            return done(container, key, version, check, check.unrepaired != null ? Status.DEGRADED : Status.REPAIRED,
                    check.unrepaired != null ? check.unrepaired : "");
        }

        /**
         * UNRECOVERABLE — unless a write replaced the version while it was checked (its copies then went to GC, which
         * is no loss): SUPERSEDED. The metadata is read again to tell; if that read fails, the verdict stands.
         */
        private KeyHealth unrecoverable(String container, String key, String version, Metadata meta, ScrubCheck check,
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
                        base.cacheCounter(), base.erasure(), base.chunked(), base.userMetadata(), base.conditional());
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

        private KeyHealth done(String container, String key, String version, ScrubCheck c, Status status,
                               String detail) {
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
        Verdict[] verdicts(ScrubPiece p, ScrubCheck c) {
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
                    v[i] = size != null && size == p.copySize(i) ? Verdict.OK : confirm(store, p, i);
                }
                c.record(v[i], cloud);
                if (cloud.equals(from)) { // migration: every copy there moves (a good one can be the source)
                    c.moving = true;
                    c.found.put(p.name() + "#" + i, v[i]);
                    v[i] = Verdict.MOVE;
                }
            }
            return v;
        }

        /**
         * Copy {@code i} of {@code p}, absent from the bulk listing or listed with another size, by a listing of its
         * exact name (committed after the bulk listing?); UNCHECKED if that listing fails: the cloud did not answer,
         * which says nothing about the copy.
         */
        private Verdict confirm(CloudStore store, ScrubPiece p, int i) {
            rate.acquire(0);
            try {
                Long size = store.list(p.name()).stream().filter(x -> x.key().equals(p.name()))
                        .map(CloudObject::size).findFirst().orElse(null);
                return size == null ? Verdict.MISSING : size == p.copySize(i) ? Verdict.OK : Verdict.CORRUPT;
            } catch (RuntimeException e) {
                LOG.debug("scrub: {} on {} could not be listed; unchecked: {}", p.name(), store.id(), e.toString());
                return Verdict.UNCHECKED;
            }
        }

        /** Copy {@code i} of {@code p}, verified (cached per check), or null with the verdict in {@code c}. */
        byte[] fetch(ScrubPiece p, int i, ScrubCheck c) {
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

        /**
         * A verified replica of a replicated piece, from a copy judged good, else from one that could not be checked
         * (it may be fine); or null. A copy read gets the verdict the read found (a failed read: unchecked).
         */
        byte[] replica(ScrubPiece p, Verdict[] v, ScrubCheck c) {
            for (Verdict wanted : List.of(Verdict.OK, Verdict.UNCHECKED)) {
                for (int i = 0; i < v.length; i++) {
                    byte[] b = c.source(p, v, i) == wanted ? read(p, v, i, c) : null;
                    if (b != null) {
                        return b;
                    }
                }
            }
            return null;
        }

        /** Copy {@code i} of {@code p} verified, its verdict updated by what the read found; or null. */
        private byte[] read(ScrubPiece p, Verdict[] v, int i, ScrubCheck c) {
            if (!clouds.containsKey(p.clouds().get(i))) {
                return null;
            }
            byte[] b = fetch(p, i, c);
            c.reread(p, v, i, b != null ? Verdict.OK : c.lastVerdict);
            return b;
        }

        /**
         * Rebuilds the bad copies of {@code p}: onto the cloud each was on, else (top-level pieces, {@code moves}
         * not null) onto another cloud, recorded in {@code moves}. Returns why it is unrecoverable, or null. Too few
         * copies read while some could not be checked is no loss: nothing is rebuilt ({@link ScrubCheck#unrepaired}).
         */
        String rebuild(ScrubPiece p, Verdict[] v, ScrubCheck c, Map<Integer, String> moves) {
            byte[][] copies = new byte[v.length][];
            if (p.erasure() == null) {
                byte[] good = replica(p, v, c);
                if (good == null) {
                    if (c.unsure(p, v) > 0) {
                        c.unrepaired("no copy of " + p.name() + " could be read: clouds did not answer");
                        return null;
                    }
                    return "no copy of " + p.name() + " matches its hash";
                }
                java.util.Arrays.fill(copies, good);
            } else {
                byte[][] fragments = new byte[v.length][];
                boolean[] present = new boolean[v.length];
                int have = 0;
                for (Verdict wanted : List.of(Verdict.OK, Verdict.UNCHECKED)) {
                    for (int i = 0; i < v.length && have < p.needed(); i++) {
                        if (!present[i] && c.source(p, v, i) == wanted && (fragments[i] = read(p, v, i, c)) != null) {
                            present[i] = true;
                            have++;
                        }
                    }
                }
                if (have < p.needed()) {
                    String only = "only " + have + " of the " + p.needed() + " fragments needed for " + p.name();
                    if (have + c.unsure(p, v) >= p.needed()) {
                        c.unrepaired(only + " could be read: clouds did not answer");
                        return null;
                    }
                    return only + " match their hashes";
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
                if (v[i] != Verdict.MOVE && writes.put(was, p.name(), copies[i])) {
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
                boolean toTo = v[i] == Verdict.MOVE && !p.clouds().contains(to) && !moves.containsValue(to)
                        && !writes.holdsLeftover(to, p.name());
                List<String> targets = toTo ? List.of(to) : others;
                boolean placed = false;
                for (String target : targets) {
                    if ((toTo || !writes.holdsLeftover(target, p.name())) && writes.put(target, p.name(), copies[i])) {
                        moves.put(i, target);
                        c.moved.put(i, copies[i]);
                        c.repairedOn.add(target);
                        c.repairedCopies++;
                        placed = true;
                        break;
                    }
                }
                if (!placed) {
                    c.unrepaired("some copies could not be rebuilt: no cloud accepted them");
                }
            }
            return null;
        }

    }
}
