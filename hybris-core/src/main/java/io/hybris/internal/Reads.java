/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.ByteRange;
import io.hybris.CallInterruptedException;
import io.hybris.ConcurrentOverwriteException;
import io.hybris.Consistency;
import io.hybris.CryptoException;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.ValueTooLargeException;
import io.hybris.spi.MetadataKey;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * GET in every form (paper §3.3, §3.5, §3.10): the metadata read, the common-case read of the version's stored bytes
 * (through the value cache when configured), the worst-case read under a metadata watch, and what the bytes become:
 * the value of a version stored whole, or for a chunked value a {@link ChunkedReader} over its manifest, for the
 * whole value or a range (docs/streaming.md). Tracks the streams it opened so that closing the client ends them.
 * Thread-safe.
 */
final class Reads {
    /** Rounds (of 5 s) a worst-case request may run before it is asked again: see {@link #restartsRequests}. */
    static final int ROUNDS_PER_REQUEST = 3;

    /** The largest stored version a GET reads speculatively: above it, a wasted read would cost real transfer. */
    static final long SPECULATE_MAX_BYTES = 1 << 20;

    private final MetadataCalls metadata;
    private final ReadPath reads;
    /** The read path of a weak read's fallback after the cache failed: it does not ask the cache again. */
    private final ReadPath cacheFailedReads;
    /** Whether GETs read ahead speculatively: {@code hybris.get.speculate}, and no value cache. */
    private final boolean speculate;
    private final CacheLayer cache;
    private final Sealer sealer;
    private final CloudCalls calls;
    private final Layouts layouts;
    private final HybrisListener listener;
    private final String prefix;
    private final ExecutorService io;
    private final Duration deadline;
    private final int readAhead;
    /**
     * The streams open, for {@link #close()} to end them; weakly held, so that a stream its program dropped without
     * closing it (read to the end, or given up half-way) is not kept, with its read-ahead chunks, until the client
     * closes. Guarded by itself.
     */
    private final Set<ChunkedReader> openStreams = java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>());
    /** Wake the worst-case reads waiting in a round, so that they see the client closed (their next metadata call). */
    private final Set<Runnable> worstCases = ConcurrentHashMap.newKeySet();
    /** How often the versions this client guessed were the ones its metadata reads found. */
    private final GuessAccuracy accuracy = new GuessAccuracy();
    /** Recent chunk manifests, read here or stored by this client's writes. */
    private final ManifestCache manifests;

    Reads(MetadataCalls metadata, ReadPath reads, ReadPath cacheFailedReads, boolean speculate, CacheLayer cache,
          Sealer sealer,
          CloudCalls calls, Layouts layouts,
          HybrisListener listener, String prefix, ExecutorService io, Duration deadline, int readAhead,
          ManifestCache manifests) {
        this.metadata = metadata;
        this.reads = reads;
        this.cacheFailedReads = cacheFailedReads;
        this.speculate = speculate;
        this.cache = cache;
        this.sealer = sealer;
        this.calls = calls;
        this.layouts = layouts;
        this.listener = listener;
        this.prefix = prefix;
        this.io = io;
        this.deadline = deadline;
        this.readAhead = readAhead;
        this.manifests = manifests;
    }

    /**
     * Ends the streams still open: their next read fails with {@code ClientClosedException}; so does a worst-case
     * read waiting in a round, woken here (call after {@link MetadataCalls#close()}: its next metadata call fails).
     */
    void close() {
        List<ChunkedReader> open;
        synchronized (openStreams) {
            open = List.copyOf(openStreams);
        }
        open.forEach(r -> r.closeBecause("the client was closed while the value was being read"));
        worstCases.forEach(Runnable::run);
    }

    private void closed(ChunkedReader reader) {
        synchronized (openStreams) {
            openStreams.remove(reader);
        }
    }

    /** GET (paper §3.3 and §3.5). */
    Optional<byte[]> get(String container, String key) {
        return get(container, key, reads);
    }

    /**
     * GET, reading the current version's stored bytes through {@code via}. A chunked version superseded while its
     * chunks were read, and collected ({@link ConcurrentOverwriteException}: the metadata now names a newer
     * version), is read again from the metadata: the caller sees no chunk, so the newer value is the answer, as it
     * is for a value stored whole (whose worst case re-reads the metadata). Each retry reads a newer version; the
     * deadline bounds them all.
     */
    private Optional<byte[]> get(String container, String key, ReadPath via) {
        MetadataKey mk = new MetadataKey(container, key);
        Deadline d = Deadline.after(deadline);
        while (true) {
            Fetched f = fetch(mk, d, via);
            if (f == null) {
                return Optional.empty();
            }
            try {
                return Optional.of(value(mk, f.meta(), f.stored(), f.dataKey(), f.early()));
            } catch (ConcurrentOverwriteException e) {
                listener.getRestarted(container, key);
            } finally {
                f.cancelEarly();
            }
        }
    }

    /**
     * GET in the given consistency mode (paper §3.10): the weaker modes answer from the value cache without the
     * metadata store when they may, and fall back to the linearizable GET otherwise.
     */
    Optional<byte[]> get(String container, String key, Consistency consistency) {
        CacheLayer.Found found = cache.weakRead(consistency, container, key);
        if (found == CacheLayer.Found.UNAVAILABLE) {
            return get(container, key, cacheFailedReads); // the GET waited for the cache once already
        }
        if (found != null && consistency != Consistency.READ_YOUR_WRITES
                && !sealer.authenticatesCacheEntryOf(found.meta())) {
            // a bounded-staleness entry carries metadata no one authenticated: one that claims a plaintext value
            // or a deletion (for a client that encrypts), carries its data key in the clear (never written to such
            // entries) or holds a chunked value's manifest (which alone binds the sealed chunks' number and order)
            // needs no key to forge, so it is a miss, not the value (docs/cache.md: with envelope encryption a
            // forged entry fails authenticated decryption)
            cache.unusable(consistency, container, key, found.meta(), new CryptoException("a bounded-staleness"
                    + " entry whose value is not sealed under a key-encryption key"));
            found = null;
        }
        if (found != null) {
            if (found.meta().isTombstone()) {
                return Optional.empty();
            }
            try {
                MetadataKey mk = new MetadataKey(container, key);
                return Optional.of(value(mk, found.meta(), found.stored(), sealer.dataKey(found.meta(), mk), null));
            } catch (CryptoException | ConcurrentOverwriteException e) {
                // a cached chunked value's chunks go with its version once a newer one replaced it: the read
                // falls back to the linearizable one, which finds that newer version ("no GET fails because of
                // the cache")
                cache.unusable(consistency, container, key, found.meta(), e);
            }
        }
        return get(container, key);
    }

    /**
     * What a read found: the live version's metadata, its verified stored bytes and its data key (or null); for a
     * chunked version, the reads of its first chunks started with its manifest's (or null).
     */
    private record Fetched(Metadata meta, byte[] stored, byte[] dataKey, ChunkSpeculation early) {
        Fetched(Metadata meta, byte[] stored, byte[] dataKey) {
            this(meta, stored, dataKey, null);
        }

        /** Abandons the chunk reads started early that were not handed to a reader. */
        void cancelEarly() {
            if (early != null) {
                early.cancel();
            }
        }
    }

    /** The common-case read, then the worst case; null if the key is absent or deleted. */
    private Fetched fetch(MetadataKey mk, Deadline d, ReadPath via) {
        Metadata guess = guess(mk, ByteRange.all());
        SpeculativeRead guessed = speculate(mk, guess, d);
        try {
            Current cur = metadata.read(mk, d);
            scoreGuess(guess, cur);
            if (!cur.live()) {
                return null;
            }
            List<Throwable> failures = new ArrayList<>();
            byte[] dataKey = sealer.dataKey(cur.meta(), mk); // checked before any download
            checkFitsArray(mk, cur.meta()); // so is the length
            ChunkSpeculation early = speculateChunks(mk, cur.meta(), 0, readAhead, d);
            byte[] stored = readStoredOrCancel(mk, cur, guessed, early, d, failures, via);
            if (stored != null) {
                return new Fetched(cur.meta(), stored, dataKey, early);
            }
            listener.worstCaseGet(mk.container(), mk.key());
            return worstCaseGet(mk, d, failures);
        } finally {
            if (guessed != null) {
                guessed.cancel();
            }
        }
    }

    /**
     * The version of {@code mk} this client saw last, when speculation is on and a read of it could start before
     * the metadata read: a value stored whole of at most {@value #SPECULATE_MAX_BYTES} bytes on at least one cloud
     * that answers over a network (a cloud bounding its calls answers in microseconds: nothing to overlap), for which
     * {@code range} is valid (an invalid range fails before any download); else null.
     */
    private Metadata guess(MetadataKey mk, ByteRange range) {
        if (!speculate) {
            return null;
        }
        Metadata guess = metadata.lastSeen(mk);
        if (guess == null || guess.isChunked() || guess.size() > SPECULATE_MAX_BYTES
                || !calls.anyUnbounded(guess.clouds()) || !validIn(range, guess.valueLength())) {
            return null;
        }
        return guess;
    }

    /** Counts whether {@code guess} (or null: none was made) was the version the metadata read found. */
    private void scoreGuess(Metadata guess, Current found) {
        if (guess != null) {
            accuracy.record(found.live() && SpeculativeRead.sameVersion(guess, found.meta()));
        }
    }

    /**
     * Starts reading {@code guess} (or null: returns null) while the metadata read runs, if this client's recent
     * guesses were mostly right ({@link GuessAccuracy}); else null.
     */
    private SpeculativeRead speculate(MetadataKey mk, Metadata guess, Deadline d) {
        if (guess == null || !accuracy.worthGuessing()) {
            return null;
        }
        String objectKey = new ObjectKey(mk.container(), mk.key(), guess.timestamp()).render(prefix);
        try {
            return SpeculativeRead.start(layouts, objectKey, guess, d);
        } catch (RuntimeException e) { // a guess never fails a GET (e.g. the client is closing: the GET then fails)
            return null;
        }
    }

    private static boolean validIn(ByteRange range, long valueLength) {
        try {
            range.firstIn(valueLength);
            return true;
        } catch (io.hybris.InvalidRangeException e) {
            return false;
        }
    }

    /**
     * The verified stored bytes of the current version: through the speculative read {@code guessed} (or null) if it
     * guessed that version, else as {@link #readStored(MetadataKey, Current, Deadline, List, ReadPath)}.
     */
    private byte[] readStored(MetadataKey mk, Current cur, SpeculativeRead guessed, Deadline d,
                              List<Throwable> failures, ReadPath via) {
        if (guessed != null && guessed.matches(cur)) {
            return guessed.finish(d, failures);
        }
        if (guessed != null) {
            guessed.cancel();
        }
        return readStored(mk, cur, d, failures, via);
    }

    /**
     * As {@link #readStored(MetadataKey, Current, SpeculativeRead, Deadline, List, ReadPath)}; the chunk reads
     * started early ({@code early}, or null) are abandoned if the manifest is not read (null or an exception).
     */
    private byte[] readStoredOrCancel(MetadataKey mk, Current cur, SpeculativeRead guessed, ChunkSpeculation early,
                                      Deadline d, List<Throwable> failures, ReadPath via) {
        byte[] stored = null;
        try {
            stored = readStored(mk, cur, guessed, d, failures, via);
            return stored;
        } finally {
            if (stored == null && early != null) {
                early.cancel();
            }
        }
    }

    /**
     * Starts reading {@code count} chunks of the chunked version {@code meta} from the one holding value
     * byte {@code offset}, alongside its manifest's read ({@link ChunkSpeculation}), when this GET will read the
     * manifest from a cloud (not from memory) and speculation is on; else null.
     */
    private ChunkSpeculation speculateChunks(MetadataKey mk, Metadata meta, long offset, int count, Deadline d) {
        if (!speculate || !meta.isChunked() || meta.chunked().chunkSize() == 0) {
            return null;
        }
        ObjectKey version = new ObjectKey(mk.container(), mk.key(), meta.timestamp());
        if (manifests.get(version.render(prefix), meta) != null) {
            return null;
        }
        int first = (int) (offset / meta.chunked().chunkSize());
        return ChunkSpeculation.start(calls, layouts, version, prefix, meta, meta.encryption() != null, first, count,
                d);
    }

    /**
     * The verified stored bytes of the current version, through {@code via}; a chunked value's manifest from memory
     * when it is there.
     */
    private byte[] readStored(MetadataKey mk, Current cur, Deadline d, List<Throwable> failures, ReadPath via) {
        if (!cur.meta().isChunked()) {
            return via.read(mk, cur, d, failures);
        }
        String name = new ObjectKey(mk.container(), mk.key(), cur.meta().timestamp()).render(prefix);
        byte[] cached = manifests.get(name, cur.meta());
        if (cached != null) {
            return cached;
        }
        byte[] stored = via.read(mk, cur, d, failures);
        if (stored != null) {
            manifests.put(name, stored);
        }
        return stored;
    }

    /** The value of a version from its verified stored bytes (a chunked value's manifest: then its chunks). */
    private byte[] value(MetadataKey mk, Metadata meta, byte[] stored, byte[] dataKey, ChunkSpeculation early) {
        if (!meta.isChunked()) {
            return sealer.open(dataKey, stored);
        }
        checkFitsArray(mk, meta);
        long length = meta.chunked().valueLength();
        try (ChunkedReader in = chunkedReader(mk, meta, stored, dataKey, 0, length, true, early)) {
            byte[] value = new byte[(int) length];
            int n = 0;
            for (int got; n < value.length && (got = in.read(value, n, value.length - n)) > 0; ) {
                n += got;
            }
            if (n != length) {
                throw new HybrisException("the chunks of " + mk + " held " + n + " bytes, its metadata says " + length);
            }
            return value;
        }
    }

    /** Throws {@link ValueTooLargeException} if the value of {@code meta} is longer than one array holds. */
    private static void checkFitsArray(MetadataKey mk, Metadata meta) {
        long length = meta.valueLength();
        if (length > Engine.MAX_ARRAY) {
            throw new ValueTooLargeException("the value of key '" + mk.key() + "' in " + mk.container() + " has "
                    + length + " bytes, more than one array holds; read it with getStream or getTo", Engine.MAX_ARRAY);
        }
    }

    /**
     * A streaming GET of {@code range} of the key's current value; null if the key is absent or deleted. The range
     * is checked against the length in metadata before anything is downloaded; a chunked value then costs the
     * manifest read and fetches only the chunks covering the range, {@code hybris.chunk.read-ahead} at a time.
     */
    Engine.Opened open(String container, String key, ByteRange range) {
        MetadataKey mk = new MetadataKey(container, key);
        Deadline d = Deadline.after(deadline);
        Metadata guess = guess(mk, range);
        SpeculativeRead guessed = speculate(mk, guess, d);
        try {
            return open(mk, range, d, guess, guessed);
        } finally {
            if (guessed != null) {
                guessed.cancel();
            }
        }
    }

    private Engine.Opened open(MetadataKey mk, ByteRange range, Deadline d, Metadata guess,
                               SpeculativeRead guessed) {
        Current cur = metadata.read(mk, d);
        scoreGuess(guess, cur);
        if (!cur.live()) {
            return null;
        }
        long valueLength = cur.meta().valueLength();
        range.firstIn(valueLength); // an invalid range fails before any download
        List<Throwable> failures = new ArrayList<>();
        byte[] dataKey = sealer.dataKey(cur.meta(), mk);
        ChunkSpeculation early = range.lengthIn(valueLength) == 0 ? null
                : speculateChunks(mk, cur.meta(), range.firstIn(valueLength), 1, d);
        byte[] stored = readStoredOrCancel(mk, cur, guessed, early, d, failures, reads);
        Fetched f;
        if (stored != null) {
            f = new Fetched(cur.meta(), stored, dataKey, early);
        } else {
            listener.worstCaseGet(mk.container(), mk.key());
            f = worstCaseGet(mk, d, failures);
            if (f == null) {
                return null;
            }
            valueLength = f.meta().valueLength();
        }
        long first = range.firstIn(valueLength);
        long length = range.lengthIn(valueLength);
        java.io.InputStream in;
        try {
            if (f.meta().isChunked()) {
                in = chunkedReader(mk, f.meta(), f.stored(), f.dataKey(), first, length, false, f.early());
            } else {
                in = new java.io.ByteArrayInputStream(sealer.open(f.dataKey(), f.stored()), (int) first,
                        (int) length);
            }
        } finally {
            f.cancelEarly();
        }
        return new Engine.Opened(f.meta().toVersionInfo(), first, length, in);
    }

    private ChunkedReader chunkedReader(MetadataKey mk, Metadata meta, byte[] manifestBytes, byte[] dataKey,
                                        long first, long length, boolean whole, ChunkSpeculation early) {
        ChunkManifest manifest = ChunkManifest.decode(manifestBytes);
        if (manifest.valueLength() != meta.chunked().valueLength()) {
            throw new HybrisException("the chunk manifest of " + mk + " describes " + manifest.valueLength()
                    + " bytes, its metadata " + meta.chunked().valueLength());
        }
        Map<Integer, PendingRead> started = early == null ? Map.of() : early.adopt(manifest);
        ObjectKey version = new ObjectKey(mk.container(), mk.key(), meta.timestamp());
        ChunkedReader reader = new ChunkedReader(manifest, version, prefix, layouts,
                (name, chunk, d, failures) -> worstCaseChunk(mk, meta.timestamp(), name, chunk, d, failures),
                dataKey, io, deadline, readAhead, first, length, this::closed, whole, started);
        synchronized (openStreams) {
            openStreams.add(reader);
        }
        return reader;
    }

    /**
     * The worst-case GET (paper §3.5): subscribe to the key, run rounds of the version's layout (every listed cloud
     * in parallel, failed ones re-requested with backoff), restart when the metadata changes, give up at the
     * deadline. Null if the key was deleted meanwhile. One race serves every round: a request still running when a
     * round ends keeps running while the version it reads is current, so a cloud slower than a round still answers.
     */
    private Fetched worstCaseGet(MetadataKey mk, Deadline d, List<Throwable> failures) {
        Race<byte[]> race = calls.newReadRace();
        Race.Signal changed = new Race.Signal("metadata changed");
        String racing = null; // the object the race's requests read
        int round = 0; // rounds of that object on the race
        boolean first = true;
        Runnable wake = () -> race.signal(changed);
        worstCases.add(wake);
        try {
            while (true) {
                if (!first) {
                    listener.getRestarted(mk.container(), mk.key());
                }
                first = false;
                MetadataCalls.Watched watched = metadata.readAndWatch(mk, () -> race.signal(changed), d);
                try {
                    Current cur = watched.current();
                    if (!cur.live()) {
                        return null;
                    }
                    Metadata meta = cur.meta();
                    byte[] dataKey = sealer.dataKey(meta, mk);
                    String objectKey = new ObjectKey(mk.container(), mk.key(), meta.timestamp()).render(prefix);
                    if (racing != null && !racing.equals(objectKey)) {
                        calls.abandon(race, racing); // another version: the old one's requests are of no use
                        round = 0;
                    } else if (restartsRequests(round)) {
                        calls.abandon(race, racing); // requests that ran this long may hang: ask again
                    }
                    racing = objectKey;
                    round++;
                    byte[] stored = layouts.forRead(meta).readRound(race, changed, objectKey, meta, d, failures);
                    if (stored != null) {
                        return new Fetched(meta, stored, dataKey);
                    }
                    // the metadata changed or the round ended: re-read
                } finally {
                    watched.cancel();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("get of " + mk + " interrupted", false, e);
        } finally {
            worstCases.remove(wake);
            calls.abandon(race, racing);
        }
    }

    /**
     * Whether round {@code round} (0: the first) of one object's worst-case read cancels the requests still running
     * and asks those clouds again: every {@value #ROUNDS_PER_REQUEST} rounds. Keeping a request across rounds lets a
     * cloud slower than a round answer; restarting it after a few lets a request whose connection hangs (unanswered
     * until the driver's timeout, 60 s by default, as long as the deadline) be asked again before the deadline.
     */
    private static boolean restartsRequests(int round) {
        return round > 0 && round % ROUNDS_PER_REQUEST == 0;
    }

    /**
     * The worst case for one chunk of a chunked value no listed cloud provided: rounds over its clouds while the
     * version is current (on one race, as {@link #worstCaseGet}). Chunks are immutable, so once the version is
     * superseded (and its chunks collected) the read fails rather than mixing versions.
     */
    private byte[] worstCaseChunk(MetadataKey mk, Timestamp version, String name, Metadata chunk, Deadline d,
                                  List<Throwable> failures) {
        Race<byte[]> race = calls.newReadRace();
        Race.Signal changed = new Race.Signal("metadata changed");
        Runnable wake = () -> race.signal(changed);
        worstCases.add(wake);
        try {
            for (int round = 0; ; round++) {
                if (restartsRequests(round)) {
                    calls.abandon(race, name); // requests that ran this long may hang: ask again
                }
                MetadataCalls.Watched watched = metadata.readAndWatch(mk, () -> race.signal(changed), d);
                try {
                    Metadata now = watched.current().meta();
                    if (now == null || !now.timestamp().equals(version)) {
                        throw new ConcurrentOverwriteException(mk + " was " + (now == null || now.isTombstone()
                                ? "deleted" : "overwritten") + " while version " + version + " was being read, and "
                                + name + " is no longer on any cloud; read the key again");
                    }
                    byte[] stored = layouts.forRead(chunk).readRound(race, changed, name, chunk, d, failures);
                    if (stored != null) {
                        return stored;
                    }
                } finally {
                    watched.cancel();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CallInterruptedException("read of " + mk + " interrupted", false, e);
        } finally {
            worstCases.remove(wake);
            calls.abandon(race, name);
        }
    }
}
