/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeListener;
import io.hybris.ChangePage;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.InvalidRequestException;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.Subscription;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A container's change feed over the metadata store's change log ({@link MetadataStore#changes}): pages of
 * changes after a {@link ChangeCursor}, decoded into {@link Change}s and filtered by key prefix, and the
 * subscriptions that follow the log ({@link ChangeSubscriber}). Thread-safe.
 */
public final class ChangeFeed {
    private final MetadataStore store;
    private final MetadataCalls calls;
    private final Duration deadline;
    private final String clientId;
    private final Set<ChangeSubscriber> subscribers = ConcurrentHashMap.newKeySet();
    private boolean closed; // guarded by subscribers

    ChangeFeed(MetadataStore store, MetadataCalls calls, Duration deadline, String clientId) {
        this.store = store;
        this.calls = calls;
        this.deadline = deadline;
        this.clientId = clientId;
    }

    /** One page: the changes of up to {@code limit} commits from {@code cursor}, those under {@code prefix}. */
    public ChangePage page(String container, String prefix, ChangeCursor cursor, int limit) {
        if (limit < 1 || limit > 10_000) {
            throw new InvalidRequestException("change page limit must be 1 to 10,000 commits, was " + limit);
        }
        if (cursor == null) {
            throw new InvalidRequestException("cursor is null: start from ChangeCursor.BEGINNING or"
                    + " Hybris.latestCursor(container)");
        }
        checkSupported();
        MetadataChangePage page = calls.listing(Deadline.after(deadline), "change log of container " + container,
                () -> store.changes(container, cursor.commit(), limit));
        if (cursor.commit() <= page.compactedThrough()) {
            throw new ChangeCursorExpiredException("change cursor " + cursor + " of container " + container
                    + " is older than the change log on " + store.describe() + ", which was compacted through commit "
                    + page.compactedThrough() + ": resync (take latestCursor, list the container, then follow the"
                    + " feed from that cursor)", cursor);
        }
        if (page.end() != Long.MAX_VALUE && cursor.commit() > page.end() + 1) {
            // not one of this log's cursors: reading on from it would skip every commit numbered below it
            throw new ChangeCursorExpiredException("change cursor " + cursor + " is ahead of the change log of"
                    + " container " + container + " on " + store.describe() + ", whose commits end at "
                    + page.end() + ": a cursor of another container, or taken before the metadata store was restored"
                    + " or the container recreated; resync (take latestCursor, list the container, then follow the"
                    + " feed from that cursor)", cursor);
        }
        String encodedPrefix = prefix == null || prefix.isEmpty() ? "" : KeyEncoding.encode(prefix);
        List<Change> changes = new ArrayList<>();
        ChangeCursor next = cursor;
        for (MetadataChange commit : page.changes()) {
            List<MetadataChange.Update> updates = commit.updates();
            int first = commit.sequence() == cursor.commit() ? cursor.skip() : 0;
            for (int i = first; i < updates.size(); i++) {
                MetadataChange.Update u = updates.get(i);
                if (!encodedPrefix.isEmpty() && !KeyEncoding.encode(u.key()).startsWith(encodedPrefix)) {
                    continue;
                }
                ChangeCursor after = i == updates.size() - 1 ? new ChangeCursor(commit.sequence() + 1, 0)
                        : new ChangeCursor(commit.sequence(), i + 1);
                changes.add(new Change(u.key(), MetadataCodec.decode(u.value()).toVersionInfo(), after));
            }
            next = new ChangeCursor(commit.sequence() + 1, 0);
        }
        return new ChangePage(changes, next, page.hasMore());
    }

    /** The cursor after the newest commit of {@code container}. */
    public ChangeCursor latest(String container) {
        checkSupported();
        long last = calls.listing(Deadline.after(deadline), "change log of container " + container,
                () -> store.latestChange(container));
        return new ChangeCursor(last + 1, 0);
    }

    /** Starts a subscription on its own thread. */
    public ChangeSubscription subscribe(String container, String prefix, ChangeCursor cursor,
                                        ChangeListener listener) {
        if (cursor == null || listener == null) {
            throw new InvalidRequestException((cursor == null ? "cursor" : "listener") + " is null");
        }
        checkSupported();
        ChangeSubscriber s = new ChangeSubscriber(this, container, prefix, cursor, listener, subscribers::remove);
        synchronized (subscribers) {
            if (closed) { // the client closed after this call began: close() would not stop it
                throw new ClientClosedException("the Hybris client was closed while subscribing to container "
                        + container);
            }
            subscribers.add(s);
        }
        s.start("hybris-changes-" + clientId + "-" + container);
        return s;
    }

    /** Watches the store's log for a commit at or after {@code cursor}'s. */
    Subscription watch(String container, ChangeCursor cursor, Runnable onChange) {
        return store.watchChanges(container, cursor.commit(), onChange);
    }

    /**
     * Stops every subscription (the client is closing); their listeners hear {@code onStopped} once the listener
     * calls in progress returned (waiting up to 5 s in all, not for a call on the closing thread itself).
     */
    void close() {
        List<ChangeSubscriber> running;
        synchronized (subscribers) {
            closed = true;
            running = List.copyOf(subscribers);
        }
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5); // for all listeners
        for (ChangeSubscriber s : running) {
            s.stopClientClosed(until);
        }
    }

    /** Whether {@code t} is the thread of one of this feed's running subscriptions (its listener's calls run there). */
    public boolean runsOn(Thread t) {
        for (ChangeSubscriber s : subscribers) {
            if (s.runsOn(t)) {
                return true;
            }
        }
        return false;
    }

    private void checkSupported() {
        if (!store.hasChangeLog()) {
            throw new InvalidRequestException("the metadata store " + store.describe() + " keeps no change log, so"
                    + " it has no change feed: use the ZooKeeper, Consul or in-memory store");
        }
    }
}
