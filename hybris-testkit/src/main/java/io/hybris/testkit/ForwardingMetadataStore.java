/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.Subscription;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link MetadataStore} that passes every call to a delegate: the base of the testkit's metadata-store fault
 * decorators; override the calls a fault is about. It does not report the delegate's
 * {@link MetadataStore#callTimeBound()}, so Hybris calls a decorated store from its own threads (a decorator may
 * block). {@link #close()} closes the delegate.
 */
public class ForwardingMetadataStore implements MetadataStore {
    private final MetadataStore delegate;

    /** Forwards to {@code delegate}. */
    public ForwardingMetadataStore(MetadataStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate must not be null");
    }

    /** The decorated store. */
    protected MetadataStore delegate() {
        return delegate;
    }

    @Override
    public Optional<VersionedValue> read(MetadataKey key) {
        return delegate.read(key);
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        return delegate.readAndWatch(key, onChange);
    }

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        delegate.conditionalUpdate(update);
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        delegate.conditionalUpdateAll(updates);
    }

    @Override
    public MetadataPage list(String container, String prefix, String startAfter, int limit) {
        return delegate.list(container, prefix, startAfter, limit);
    }

    @Override
    public int maxAtomicUpdates() {
        return delegate.maxAtomicUpdates();
    }

    @Override
    public boolean hasChangeLog() {
        return delegate.hasChangeLog();
    }

    @Override
    public MetadataChangePage changes(String container, long fromSequence, int limit) {
        return delegate.changes(container, fromSequence, limit);
    }

    @Override
    public long latestChange(String container) {
        return delegate.latestChange(container);
    }

    @Override
    public Subscription watchChanges(String container, long fromSequence, Runnable onChange) {
        return delegate.watchChanges(container, fromSequence, onChange);
    }

    @Override
    public List<String> containers() {
        return delegate.containers();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
