/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One untrusted cloud (the paper's Algorithm 3): a flat key-value object store. Hybris tolerates up to
 * {@code f} of its configured clouds being arbitrarily faulty, so an implementation only has to be honest
 * about errors; it is never trusted for correctness of data.
 *
 * <p><b>Object keys</b> handed to a store consist only of {@code [A-Za-z0-9._%#/-]} and {@code _}, are at most
 * 1024 characters long and contain no empty, {@code "."} or {@code ".."} segment between slashes.
 *
 * <p><b>Errors</b>: a missing object is {@link Optional#empty()} (or a no-op for delete), never an exception;
 * failures are {@link TransientCloudException} (retry may succeed: timeouts, throttling, 5xx),
 * {@link PermanentCloudException} (bad credentials, missing bucket) or {@link OversizedObjectException}.
 *
 * <p>Implementations must be thread-safe and should honour thread interruption: Hybris interrupts a request
 * it no longer needs (a slower cloud after a faster one answered).
 *
 * <pre>{@code
 * CloudStore store = new InMemoryCloudStore("mem1");
 * store.put("hybris/photos/cat.jpg#1_abc", bytes);
 * Optional<byte[]> back = store.get("hybris/photos/cat.jpg#1_abc", bytes.length);
 * }</pre>
 */
public interface CloudStore extends AutoCloseable {

    /** The id this cloud is configured under; recorded in metadata, so it must stay stable. */
    String id();

    /** Stores {@code value} under {@code objectKey}, replacing any previous object, atomically. */
    void put(String objectKey, byte[] value);

    /**
     * Returns the object's bytes, or empty if there is none. If the object holds more than {@code maxBytes}
     * bytes the store must throw {@link OversizedObjectException} after reading at most {@code maxBytes + 1}
     * bytes from the network (ranged request or aborted stream), so a malicious cloud cannot make the client
     * download more than the size recorded in metadata.
     */
    Optional<byte[]> get(String objectKey, long maxBytes);

    /**
     * As {@link #get(String, long)}, and passes the bytes it returns to {@code onBytes}, in order and each exactly
     * once, as they arrive, so the caller can hash them while the download runs instead of after it. Hybris
     * verifies a value against the hash of what {@code onBytes} saw, so a store that overrides this must hand it
     * exactly the bytes of the returned array (the testkit contract checks this). If the call throws or returns
     * empty, {@code onBytes} may have seen any prefix, which the caller discards. The default reads the whole
     * value, then passes it in one piece; stores that read a stream should override it.
     */
    default Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        Optional<byte[]> value = get(objectKey, maxBytes);
        value.ifPresent(bytes -> onBytes.accept(bytes, 0, bytes.length));
        return value;
    }

    /** Every object whose key starts with {@code prefix}, in no particular order. */
    List<CloudObject> list(String prefix);

    /** Deletes the object if it exists; deleting a missing object is not an error. */
    void delete(String objectKey);

    /**
     * How long any single {@link #put}, {@link #get} or {@link #delete} of this store can take at most, or empty
     * (the default) if a call may take longer — as any call over a network may. Hybris normally hands each cloud
     * request to an I/O thread so that a per-cloud timer can start another cloud while it waits; a request to a
     * store whose bound is below that timer (and below the operation's remaining deadline) cannot be overtaken by
     * the timer, so Hybris runs it on the caller's thread instead, saving two thread hand-offs. Only stores that
     * do no I/O that could stall, such as {@link io.hybris.cloud.InMemoryCloudStore}, should return a bound; a
     * wrapper that adds latency or faults must not pass its delegate's bound through.
     */
    default Optional<Duration> callTimeBound() {
        return Optional.empty();
    }

    /** Releases connections and threads. The default does nothing. */
    @Override
    default void close() {
    }
}
