/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link CloudStore} that forwards every call to a delegate: the base of the testkit's fault-injecting
 * decorators, each of which overrides only the operations it changes (as S3Proxy's {@code ForwardingBlobStore}).
 * Decorators stack: {@code SlowCloudStore.ofGets(CorruptingCloudStore.of(store), delay)}.
 *
 * <p>Thread-safe if the delegate is. {@link #close()} closes the delegate. Two calls are deliberately not
 * forwarded: {@link CloudStore#get(String, long, io.hybris.spi.ByteConsumer)} keeps its default, which goes
 * through this class's {@link #get(String, long)} so a decorator that overrides only that still sees every read;
 * and {@link CloudStore#callTimeBound()} stays empty, since a decorator may add delays or faults.
 *
 * <pre>{@code
 * final class ReadOnlyCloudStore extends ForwardingCloudStore {
 *     ReadOnlyCloudStore(CloudStore delegate) { super(delegate); }
 *     @Override public void put(String objectKey, byte[] value) {
 *         throw new PermanentCloudException(id(), "read-only");
 *     }
 * }
 * }</pre>
 */
public abstract class ForwardingCloudStore implements CloudStore {
    private final CloudStore delegate;

    /**
     * @param delegate the store calls are forwarded to; not null
     */
    protected ForwardingCloudStore(CloudStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate must not be null");
    }

    /** The store calls are forwarded to. */
    protected CloudStore delegate() {
        return delegate;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        delegate.put(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return delegate.get(objectKey, maxBytes);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        return delegate.list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        delegate.delete(objectKey);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
