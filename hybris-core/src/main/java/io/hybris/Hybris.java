/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cost.CloudUsage;
import io.hybris.cost.CostReport;
import io.hybris.internal.Engine;
import io.hybris.internal.Names;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A Hybris client: a key-value store whose values are replicated to {@code f+1} of {@code 2f+1} untrusted
 * clouds and whose metadata is kept in a trusted, strongly consistent metadata store (ZooKeeper, Consul, ...).
 * Reads and writes of each key are linearizable; up to {@code f} clouds may be arbitrarily faulty.
 *
 * <pre>{@code
 * try (Hybris hybris = Hybris.fromProperties(Path.of("hybris.properties"))) {
 *     hybris.put("photos", "cat.jpg", bytes);
 *     Optional<byte[]> v = hybris.get("photos", "cat.jpg");
 *     hybris.tput("photos", Map.of("a", va, "b", vb));   // all or nothing
 *     List<String> keys = hybris.list("photos");
 *     hybris.delete("photos", "cat.jpg");
 * }
 * }</pre>
 *
 * <p><b>Thread safety</b>: a client is thread-safe and meant to be shared. Several clients with different
 * configurations may live in one JVM; each owns its threads and closes them in {@link #close()}.
 *
 * <p><b>Names</b>: containers are 1-63 characters of {@code [a-z0-9-]}; keys are non-empty strings of at most
 * 256 UTF-8 bytes without control characters or unpaired surrogates. Violations throw
 * {@link InvalidRequestException} before anything is written.
 *
 * <p><b>Failures</b>: every call throws only {@link HybrisException} and its subclasses. A write that fails with
 * an exception whose outcome is unknown ({@link DeadlineExceededException} saying so,
 * {@link MetadataUnavailableException}, {@link CallInterruptedException}, {@link ClientClosedException} during
 * the call) may or may not have taken effect; Hybris never deletes the copies of such a write (the orphan sweep
 * does, once metadata shows they are unreferenced). Interrupting a calling thread ends its call promptly with
 * {@link CallInterruptedException} and the interrupt flag set; {@link #close()} with calls in flight ends them
 * with {@link ClientClosedException}.
 *
 * <p><b>Deadlines</b>: every call finishes within {@code hybris.deadline} (default 30 s) or throws
 * {@link DeadlineExceededException} naming what was tried. The {@code ...Async} twins run the same calls on
 * the client's own threads.
 */
public final class Hybris implements AutoCloseable {
    private final HybrisConfig config;
    private final ClientRuntime runtime;
    final Engine engine;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Hybris(HybrisConfig config, ClientRuntime runtime) {
        this.config = config;
        this.runtime = runtime;
        this.engine = runtime.engine;
    }

    /** A configuration builder; open a client with {@code Hybris.open(builder.build())}. */
    public static HybrisConfig.Builder builder() {
        return HybrisConfig.builder();
    }

    /** Opens a client from a properties file (environment variables override, see {@link HybrisConfig}). */
    public static Hybris fromProperties(Path file) {
        return open(HybrisConfig.fromProperties(file));
    }

    /**
     * Opens a client: creates (or takes) the metadata store and the clouds (those created from a type start
     * in parallel). If anything fails, whatever was already created is closed again.
     */
    public static Hybris open(HybrisConfig config) {
        return new Hybris(config, ClientRuntime.open(config, null));
    }

    /**
     * {@link #open(HybrisConfig)} with a listener that gets every event beside the configuration's own (for a
     * configuration read from a file, which cannot name one): e.g. a metrics binding.
     */
    public static Hybris open(HybrisConfig config, HybrisListener listener) {
        if (listener == null) {
            throw new InvalidRequestException("listener must not be null; use open(config) for none");
        }
        return new Hybris(config, ClientRuntime.open(config, listener));
    }

    /** This client's configuration. */
    public HybrisConfig config() {
        return config;
    }

    /**
     * Stores {@code value} under {@code key} in {@code container}, replacing any previous value. Returns once the
     * value is on {@code f+1} clouds and its metadata is committed; the superseded version is deleted in the
     * background. Wait-free: concurrent writers never block each other. The array is copied.
     *
     * @throws InvalidRequestException   bad container, key or value (nothing written)
     * @throws NotEnoughCloudsException  fewer than {@code f+1} clouds stored the value (nothing committed)
     * @throws DeadlineExceededException the deadline passed (the message says whether the outcome is unknown)
     * @throws MetadataStoreException    the metadata store failed (unavailable: outcome unknown)
     * @throws CallInterruptedException  the calling thread was interrupted (outcome unknown if it says so)
     * @throws ClientClosedException     the client was closed before or during the call (outcome unknown)
     * @return the version committed (its {@link VersionInfo#version()} is what {@link PutOptions#ifMatch} takes)
     */
    public VersionInfo put(String container, String key, byte[] value) {
        return put(container, key, value, PutOptions.none());
    }

    /**
     * {@link #put(String, String, byte[])} with a precondition: {@link PutOptions#ifMatch} (the key's current
     * version must be the given one) or {@link PutOptions#ifAbsent} (the key must have no value). The precondition
     * is checked before anything is uploaded and again atomically by the commit.
     *
     * @throws PreconditionFailedException the precondition does not hold (nothing written; has the current version)
     */
    public VersionInfo put(String container, String key, byte[] value, PutOptions options) {
        Names.checkContainerAndKey(container, key);
        return call(() -> engine.put(container, key, value, options));
    }

    /**
     * Stores the {@code length} bytes of {@code value} under {@code key} (use {@code -1} when the length is not
     * known: the stream is read to its end). A value up to {@code hybris.chunk.threshold} (8 MiB) is stored whole,
     * like {@link #put(String, String, byte[])}; a larger one is cut into chunks of {@code hybris.chunk.size}, each
     * stored on {@code f+1} clouds (or erasure-coded) with {@code hybris.chunk.parallel-uploads} in flight, then a
     * manifest, then the metadata is committed: memory stays bounded whatever the length (docs/streaming.md). Each
     * chunk must be stored within {@code hybris.deadline}; reading the stream is not timed. The stream is read on
     * the calling thread and not closed.
     *
     * @return the version committed
     * @throws ValueLengthMismatchException the stream ended before, or went on after, {@code length} bytes
     * @throws ValueTooLargeException       the value is above {@code hybris.value.max-size}
     * @throws ValueSourceException         the stream threw an {@code IOException}
     * @throws NotEnoughCloudsException     a chunk could not be stored on enough clouds
     * @throws PutOvertakenException        a value in chunks overtaken before its commit by a conditional write or
     *                                      deletion (the stream cannot be read again; nothing committed: put again)
     */
    public VersionInfo put(String container, String key, InputStream value, long length) {
        return put(container, key, value, length, PutOptions.none());
    }

    /**
     * {@link #put(String, String, InputStream, long)} with a precondition (see
     * {@link #put(String, String, byte[], PutOptions)}), checked before the first chunk is uploaded.
     */
    public VersionInfo put(String container, String key, InputStream value, long length, PutOptions options) {
        Names.checkContainerAndKey(container, key);
        return call(() -> engine.put(container, key, value, length, options, null));
    }

    /**
     * Stores {@code file} under {@code key}, streamed as {@link #put(String, String, InputStream, long)} does; the
     * file must not change while read (a changed length fails the put). Overtaken by a conditional write or deletion,
     * it puts again from the file, until the deadline passes from the first time ({@link PutOvertakenException}).
     *
     * @throws InvalidRequestException the file does not exist or is not a regular file
     */
    public VersionInfo put(String container, String key, Path file) {
        return put(container, key, file, PutOptions.none());
    }

    /** {@link #put(String, String, Path)} with a precondition and application metadata. */
    public VersionInfo put(String container, String key, Path file, PutOptions options) {
        Names.checkContainerAndKey(container, key);
        return call(() -> StreamTransfers.putFile(file,
                (in, length, reopen) -> engine.put(container, key, in, length, options, reopen)));
    }

    /**
     * Reads the current value of {@code key} as a stream, with the version it belongs to; empty if the key was
     * never written or was deleted. The metadata and (for a chunked value) the manifest are read before this
     * returns; the chunks are fetched as the stream is read, a bounded number ahead. Close the stream.
     */
    public Optional<ValueStream> getStream(String container, String key) {
        return get(container, key, ByteRange.all());
    }

    /**
     * Reads {@code range} of the current value of {@code key} as a stream; empty if the key was never written or
     * was deleted. Only the chunks covering the range are fetched: the first byte costs one metadata read, one
     * manifest read and one chunk read.
     *
     * @throws InvalidRangeException the range is outside the value (checked before anything is downloaded)
     */
    public Optional<ValueStream> get(String container, String key, ByteRange range) {
        Names.checkContainerAndKey(container, key);
        if (range == null) {
            throw new InvalidRequestException("range must not be null; use getStream for the whole value");
        }
        return call(() -> Optional.ofNullable(engine.open(container, key, range))
                .map(o -> new ValueStream(o.version(), o.first(), o.length(), o.in(), this::surfaced)));
    }

    /**
     * Writes the current value of {@code key} to {@code file}, streamed: to a temporary file beside it, renamed
     * over {@code file} only once every byte is verified, so a failed read never leaves a partial file. Returns the
     * version written; empty (and {@code file} untouched) if the key was never written or was deleted.
     *
     * @throws HybrisException with the {@code IOException} as cause, if the file cannot be written
     */
    public Optional<VersionInfo> getTo(String container, String key, Path file) {
        Names.checkContainerAndKey(container, key);
        if (file == null) {
            throw new InvalidRequestException("the file to write must not be null");
        }
        return call(() -> {
            Optional<ValueStream> in = get(container, key, ByteRange.all());
            if (in.isEmpty()) {
                return Optional.empty();
            }
            try (ValueStream stream = in.get()) {
                StreamTransfers.copyToFile(stream, file);
                return Optional.of(stream.version());
            } catch (java.io.IOException e) {
                throw StreamTransfers.unwrap(e, file);
            }
        });
    }

    /**
     * Reads the current value of {@code key}: from the fastest cloud holding it, verified against the SHA-256
     * in metadata, falling back to other clouds and, if all fail, to the worst-case protocol that waits for a
     * valid copy or a metadata change until the deadline.
     *
     * @return the value, or empty if the key was never written or was deleted
     */
    public Optional<byte[]> get(String container, String key) {
        Names.checkContainerAndKey(container, key);
        return call(() -> engine.get(container, key, config.cache().consistency()));
    }

    /**
     * {@link #get(String, String)} with per-call options, e.g. {@code ReadOptions.readYourWrites()}: the weaker
     * consistency modes (paper §3.10) answer from the value cache without reading metadata when they may, and
     * read like {@link #get(String, String)} otherwise. What each mode guarantees: {@link Consistency} and
     * {@code docs/cache.md}.
     *
     * @throws InvalidRequestException if the mode needs a cache setting this client does not have
     */
    public Optional<byte[]> get(String container, String key, ReadOptions options) {
        Names.checkContainerAndKey(container, key);
        if (options == null) {
            throw new InvalidRequestException("options is null: pass ReadOptions (e.g. ReadOptions.linearizable())");
        }
        return call(() -> engine.get(container, key, options.consistency()));
    }

    /** Counters of the value cache (hits, misses, rejected entries, ...); all zero without a cache. */
    public CacheStats cacheStats() {
        return engine.cacheStats();
    }

    /**
     * Deletes {@code key} (a tombstone in metadata; the data is garbage-collected). Returns the deletion's version;
     * deleting a key with no value (also one deleted by another call since this one read it) is a no-op: empty.
     */
    public Optional<VersionInfo> delete(String container, String key) {
        return delete(container, key, DeleteOptions.none());
    }

    /**
     * {@link #delete(String, String)} with a precondition: {@link DeleteOptions#ifMatch} deletes only the given
     * version (a key with no value fails it).
     *
     * @throws PreconditionFailedException the precondition does not hold (nothing written)
     */
    public Optional<VersionInfo> delete(String container, String key, DeleteOptions options) {
        Names.checkContainerAndKey(container, key);
        return call(() -> engine.delete(container, key, options));
    }

    /**
     * Writes several keys of one container atomically: after it returns, all values are visible; if it throws,
     * none is. At most 1000 keys. Returns the committed versions by key.
     *
     * @throws TransactionAbortedException a concurrent newer write to one of the keys won; nothing was written
     */
    public Map<String, VersionInfo> tput(String container, Map<String, byte[]> values) {
        return tput(container, values, Map.of());
    }

    /**
     * {@link #tput(String, Map)} with options per key ({@code preconditions} may name some of the keys): a
     * precondition and application metadata each ({@link PutOptions}). The transaction commits only if every
     * precondition holds, checked before anything is uploaded and again atomically by the commit — a sync client's
     * commit is all or nothing against its parents.
     *
     * @throws PreconditionFailedException a precondition does not hold (nothing written; has the key and version)
     */
    public Map<String, VersionInfo> tput(String container, Map<String, byte[]> values,
                                         Map<String, PutOptions> preconditions) {
        Names.checkContainer(container);
        return call(() -> engine.tput(container, values, preconditions));
    }

    /** All live keys of {@code container} (from metadata only; deleted keys excluded). */
    public List<String> list(String container) {
        Names.checkContainer(container);
        return call(() -> engine.listAll(container));
    }

    /**
     * One page of live keys of {@code container} starting with {@code prefix} (empty for all), after
     * {@code cursor} (null for the first page), at most {@code limit} (1 to 10,000) keys.
     */
    public KeyPage list(String container, String prefix, String cursor, int limit) {
        Names.checkContainerAndPrefix(container, prefix);
        return call(() -> engine.list(container, prefix, cursor, limit));
    }

    /**
     * {@link #list(String, String, String, int)} with each key's current version (what {@link #describe} gives)
     * from the same metadata listing, without a read per key. Same order, paging and cursors.
     */
    public DescribedKeyPage listDescribed(String container, String prefix, String cursor, int limit) {
        Names.checkContainerAndPrefix(container, prefix);
        return call(() -> engine.listDescribed(container, prefix, cursor, limit));
    }

    /** Where and which version of {@code key} is stored, from metadata; empty if absent or deleted. */
    public Optional<VersionInfo> describe(String container, String key) {
        Names.checkContainerAndKey(container, key);
        return call(() -> engine.describe(container, key));
    }

    /**
     * The changes of {@code container} after {@code cursor} under {@code prefix} (empty for all), in commit order,
     * from up to {@code limit} (1 to 10,000) commits; continue from the page's cursor. Semantics in
     * docs/changes.md: every change is listed (at least once, per key in commit order) unless the metadata
     * store's log was compacted past the cursor, or the cursor is ahead of the log (another container's, or taken
     * before the store was restored), which throws {@link ChangeCursorExpiredException}.
     */
    public ChangePage changes(String container, String prefix, ChangeCursor cursor, int limit) {
        Names.checkContainerAndPrefix(container, prefix);
        return call(() -> engine.changeFeed().page(container, prefix, cursor, limit));
    }

    /** The cursor after the newest change of {@code container}: follow the feed from now on. */
    public ChangeCursor latestCursor(String container) {
        Names.checkContainer(container);
        return call(() -> engine.changeFeed().latest(container));
    }

    /**
     * Delivers the changes of {@code container} after {@code cursor} under {@code prefix} (empty for all) to
     * {@code listener} on a thread of its own, in commit order and at least once, now and as they are committed
     * (a ZooKeeper watch or a Consul blocking query wakes it), until the subscription is closed. Metadata-store
     * outages are ridden out; save {@link ChangeSubscription#cursor()} to resume after a restart.
     */
    public ChangeSubscription subscribe(String container, String prefix, ChangeCursor cursor,
                                        ChangeListener listener) {
        Names.checkContainerAndPrefix(container, prefix);
        return call(() -> engine.changeFeed().subscribe(container, prefix, cursor, listener));
    }

    /**
     * Deletes objects under the Hybris prefix on every cloud that no metadata references and that are older
     * than {@code hybris.gc.grace} (left by crashed clients or failed deletions). Never touches objects outside
     * the prefix, nor ones a write may still be committing. Runs on the calling thread.
     */
    public SweepReport sweepOrphans() {
        return sweepOrphans(WorkProgress.NONE);
    }

    /**
     * {@link #sweepOrphans()}, reporting to {@code progress} after each object examined (the total is the number
     * of objects every cloud listed under the prefix).
     */
    public SweepReport sweepOrphans(WorkProgress progress) {
        WorkProgress p = progress == null ? WorkProgress.NONE : progress;
        return call(() -> engine.sweep(p));
    }

    /**
     * Re-measures every cloud's latency now (paper §4.4, "refresh these latency ranks when necessary"): writes,
     * reads back and deletes one small probe object per cloud and size class in use, under
     * {@code <prefix>.probe/}. The background probe ({@code hybris.ranking.probe-interval}) does the same for
     * clouds whose estimates went stale; call this after a known network change. Runs on the calling thread,
     * each cloud call bounded by that cloud's timer; returns the number of cloud/size-class pairs measured.
     */
    public int refreshLatencyRanking() {
        return call(engine::probeAllLatencies);
    }

    /**
     * What this client knows about each cloud, fastest first: rank for small reads, latency estimates, whether its
     * latest observation failed, its errors since the client opened. From memory: no cloud is contacted.
     */
    public List<CloudStatus> cloudStatus() {
        ensureOpen();
        return engine.cloudStatus();
    }

    /**
     * Checks that each current version's clouds hold its copies (by listing, or deep: hash-checked) and, with
     * {@link ScrubOptions#repair repair}, rebuilds the missing and corrupt ones (docs/scrub.md); on this thread.
     */
    public ScrubReport scrub(ScrubOptions options) {
        return call(() -> engine.scrub(options));
    }

    /**
     * Moves every copy off cloud {@code from} onto {@code to} (else another cloud), repairing as it goes, so that
     * {@code from} can leave the configuration (docs/scrub.md); this client writes nothing to {@code from} meanwhile.
     */
    public ScrubReport migrate(String from, String to, ScrubOptions options) {
        return call(() -> engine.migrate(from, to, options));
    }

    /** Every request this client made of each cloud since it opened, by price class, and its bytes (docs/cost.md). */
    public Map<String, CloudUsage> cloudUsage() {
        return engine.usage().snapshot();
    }

    /**
     * The cost of {@link #cloudUsage()} and of the bytes the clouds hold (listed now) for {@code storagePeriod}, by
     * the configured price sheets (docs/cost.md); {@link HybrisConfigurationException} if a cloud has none.
     */
    public CostReport costReport(Duration storagePeriod) {
        return call(() -> engine.costReport(storagePeriod));
    }

    /**
     * KEK rotation: re-wraps every encrypted value's data key under the key provider's current key-encryption
     * key by rewriting metadata with conditional updates; no cloud object is read or written. Safe while other
     * clients write; entries already under the current KEK are skipped, so running it again resumes an
     * interrupted rotation. Configure the provider with both the old and the new KEK (new one current), run this,
     * then drop the old KEK. Runs on the calling thread.
     */
    public RewrapReport rewrapDataKeys() {
        return rewrapDataKeys(WorkProgress.NONE);
    }

    /**
     * {@link #rewrapDataKeys()}, reporting to {@code progress} after each metadata entry (the total comes from a
     * first, metadata-only pass that counts the entries; without a listener there is no such pass).
     */
    public RewrapReport rewrapDataKeys(WorkProgress progress) {
        WorkProgress p = progress == null ? WorkProgress.NONE : progress;
        return call(() -> engine.rewrapDataKeys(p));
    }

    /** {@link #put} on the client's threads. */
    public CompletableFuture<VersionInfo> putAsync(String container, String key, byte[] value) {
        return putAsync(container, key, value, PutOptions.none());
    }

    /** {@link #put(String, String, byte[], PutOptions)} on the client's threads. */
    public CompletableFuture<VersionInfo> putAsync(String container, String key, byte[] value, PutOptions options) {
        byte[] copy = value == null ? null : value.clone();
        return async(() -> put(container, key, copy, options));
    }

    /**
     * {@link #put(String, String, InputStream, long)} on the client's threads (which read the stream: do not use
     * it until the future completes).
     */
    public CompletableFuture<VersionInfo> putAsync(String container, String key, InputStream value, long length) {
        return async(() -> put(container, key, value, length));
    }

    /** {@link #put(String, String, Path)} on the client's threads. */
    public CompletableFuture<VersionInfo> putAsync(String container, String key, Path file) {
        return async(() -> put(container, key, file));
    }

    /** {@link #getStream} on the client's threads. */
    public CompletableFuture<Optional<ValueStream>> getStreamAsync(String container, String key) {
        return async(() -> getStream(container, key), AsyncCall::closeUnread);
    }

    /** {@link #get(String, String, ByteRange)} on the client's threads. */
    public CompletableFuture<Optional<ValueStream>> getAsync(String container, String key, ByteRange range) {
        return async(() -> get(container, key, range), AsyncCall::closeUnread);
    }

    /** {@link #getTo} on the client's threads. */
    public CompletableFuture<Optional<VersionInfo>> getToAsync(String container, String key, Path file) {
        return async(() -> getTo(container, key, file));
    }

    /** {@link #get} on the client's threads. */
    public CompletableFuture<Optional<byte[]>> getAsync(String container, String key) {
        return async(() -> get(container, key));
    }

    /** {@link #get(String, String, ReadOptions)} on the client's threads. */
    public CompletableFuture<Optional<byte[]>> getAsync(String container, String key, ReadOptions options) {
        return async(() -> get(container, key, options));
    }

    /** {@link #delete} on the client's threads. */
    public CompletableFuture<Optional<VersionInfo>> deleteAsync(String container, String key) {
        return async(() -> delete(container, key));
    }

    /** {@link #delete(String, String, DeleteOptions)} on the client's threads. */
    public CompletableFuture<Optional<VersionInfo>> deleteAsync(String container, String key, DeleteOptions options) {
        return async(() -> delete(container, key, options));
    }

    /** {@link #tput} on the client's threads; the arrays are copied, as {@link #putAsync}'s. */
    public CompletableFuture<Map<String, VersionInfo>> tputAsync(String container, Map<String, byte[]> values) {
        return tputAsync(container, values, Map.of());
    }

    /** {@link #tput(String, Map, Map)} on the client's threads; the arrays are copied. */
    public CompletableFuture<Map<String, VersionInfo>> tputAsync(String container, Map<String, byte[]> values,
                                                                 Map<String, PutOptions> preconditions) {
        // copied in the caller's order (the feed's), nulls kept for tput to refuse; the caller may reuse the arrays
        Map<String, byte[]> copy = values == null ? null : new java.util.LinkedHashMap<>();
        if (values != null) {
            values.forEach((k, v) -> copy.put(k, v == null ? null : v.clone()));
        }
        Map<String, PutOptions> conditions = preconditions == null ? null : java.util.Collections.unmodifiableMap(
                new java.util.LinkedHashMap<>(preconditions));
        return async(() -> tput(container, copy, conditions));
    }

    /** {@link #list(String)} on the client's threads. */
    public CompletableFuture<List<String>> listAsync(String container) {
        return async(() -> list(container));
    }

    private <T> CompletableFuture<T> async(Supplier<T> call) {
        return async(call, null);
    }

    /** {@link AsyncCall#submit} on the client's threads: {@code cancel(true)} interrupts the call. */
    private <T> CompletableFuture<T> async(Supplier<T> call, java.util.function.Consumer<T> discard) {
        ensureOpen();
        try {
            return AsyncCall.submit(runtime.asyncCalls, call, discard);
        } catch (RejectedExecutionException e) { // close() won the race with this call
            throw new ClientClosedException("this Hybris client (" + config.clientId() + ") is closed", e);
        }
    }

    /**
     * Closes the client: new calls to the storage fail with {@link ClientClosedException} (counters such as
     * {@link #cloudUsage()} stay readable); calls in flight stop waiting and fail with it too (a write among them has
     * an unknown outcome: its metadata update may still land, and its copies are left for the orphan sweep). Then
     * waits briefly for background garbage collection and releases threads, the metadata store and the clouds it
     * created (application-supplied stores stay open). Idempotent; a close while another runs returns once that one
     * has released everything (unless its thread is interrupted, or is one of the client's own: a callback's).
     */
    @Override
    public void close() {
        closed.set(true);
        runtime.close();
    }

    <T> T call(Supplier<T> op) {
        ensureOpen();
        try {
            return op.get();
        } catch (RuntimeException e) {
            throw surfaced(e);
        }
    }

    /** What a failed call throws ({@link CallFailures#surfaced}). */
    RuntimeException surfaced(RuntimeException e) {
        return CallFailures.surfaced(e, closed.get(), config.clientId());
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new ClientClosedException("this Hybris client (" + config.clientId() + ") is closed");
        }
    }

    @Override
    public String toString() {
        return "Hybris[" + config + "]";
    }
}
