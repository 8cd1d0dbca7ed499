/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.Subscription;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * One persistent watch (ZooKeeper 3.6+) per change log, shared by the store's subscriptions to that log. A
 * subscription is a one-shot callback registered with the log's watch; the watch fires every callback registered
 * when the log's children (or its data, or the znode itself) change, and stays on the server. Setting a child watch
 * the classic way means listing the log's children, up to its retention, on every notification of every
 * subscriber; setting a persistent watch per subscription costs two requests more per notification
 * ({@code addWatch}, {@code removeWatches}). This costs one {@code addWatch} per log while it is followed.
 *
 * <p>When the connection comes back or the session is lost, every callback fires: the server does not replay the
 * changes a persistent watch missed while the connection was down, and forgets the watch with the session (it is
 * set again by the next subscription). A log nobody followed for {@link #IDLE_NANOS} has its watch removed from the
 * server at its next change. Thread-safe.
 */
final class ChangeLogWatches implements ConnectionStateListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);
    /** How long a log's watch stays on the server with no subscription before a change of the log removes it. */
    static final long IDLE_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final ZooKeeperSession session;
    private final String description;
    private final LongSupplier nanoClock;
    private final Map<String, LogWatch> byLog = new ConcurrentHashMap<>();
    private volatile boolean unsupported;

    ChangeLogWatches(ZooKeeperSession session, String description) {
        this(session, description, System::nanoTime);
    }

    /** With the clock that times idleness ({@link System#nanoTime()} but in tests). */
    ChangeLogWatches(ZooKeeperSession session, String description, LongSupplier nanoClock) {
        this.session = session;
        this.description = description;
        this.nanoClock = nanoClock;
        session.client().getConnectionStateListenable().addListener(this);
    }

    /**
     * Registers {@code onChange} to run once at the log's next change (or a reconnection), setting the log's
     * watch on the server first if it is not there. Registered before it returns: a change after this call fires it.
     *
     * @throws KeeperException.UnimplementedException if the servers have no persistent watches (before 3.6); the
     *     first refusal is remembered, and later calls throw it without asking
     */
    OneShot subscribe(String log, Runnable onChange) throws Exception {
        if (unsupported) {
            throw new KeeperException.UnimplementedException();
        }
        while (true) {
            LogWatch watch = byLog.computeIfAbsent(log, LogWatch::new);
            OneShot shot = new OneShot(watch, onChange);
            if (watch.register(shot)) {
                return shot;
            }
            byLog.remove(log, watch); // retired meanwhile: take a fresh one
        }
    }

    /** {@code action}, run at most once however often it is called (by the watches of several generations). */
    static Runnable once(Runnable action) {
        AtomicBoolean ran = new AtomicBoolean();
        return () -> {
            if (ran.compareAndSet(false, true)) {
                action.run();
            }
        };
    }

    /** The logs whose watch is on the server (for tests). */
    Set<String> watchedLogs() {
        return byLog.values().stream().filter(LogWatch::added).map(w -> w.path).collect(Collectors.toSet());
    }

    @Override
    public void stateChanged(org.apache.curator.framework.CuratorFramework client, ConnectionState state) {
        if (state == ConnectionState.RECONNECTED || state == ConnectionState.LOST) {
            for (LogWatch watch : byLog.values()) {
                watch.connectionChanged(state == ConnectionState.LOST);
            }
        }
    }

    @Override
    public void close() {
        session.client().getConnectionStateListenable().removeListener(this);
    }

    /** The persistent watch of one log and the callbacks waiting on it. */
    private final class LogWatch implements Watcher {
        private final String path;
        private final Set<OneShot> waiting = ConcurrentHashMap.newKeySet();
        private boolean added; // guarded by this
        private boolean retired; // guarded by this
        private volatile long idleSince = nanoClock.getAsLong();

        LogWatch(String path) {
            this.path = path;
        }

        synchronized boolean added() {
            return added;
        }

        /** Adds {@code shot}, setting the watch on the server first if needed; false if this watch was retired. */
        boolean register(OneShot shot) throws Exception {
            synchronized (this) {
                if (retired) {
                    return false;
                }
                waiting.add(shot);
                if (added) {
                    return true;
                }
                try {
                    // under the lock: a change that fires before the server confirms finds the shot registered,
                    // and a second subscriber waits for this one's request instead of sending its own
                    session.client().watchers().add().withMode(AddWatchMode.PERSISTENT).usingWatcher(this)
                            .forPath(path);
                    added = true;
                    return true;
                } catch (KeeperException.UnimplementedException e) {
                    unsupported = true;
                    waiting.remove(shot);
                    throw e;
                } catch (Exception e) {
                    waiting.remove(shot);
                    throw e;
                }
            }
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                return; // connection events come through the store's connection state listener
            }
            if (!fireAll() && retireIfIdle()) {
                removeFromServer();
            }
        }

        void connectionChanged(boolean sessionLost) {
            if (sessionLost) {
                synchronized (this) {
                    added = false; // the server forgot it with the session
                }
            }
            fireAll();
        }

        /** Fires and forgets every waiting callback; false if there was none. */
        private boolean fireAll() {
            List<OneShot> fired = new ArrayList<>(waiting.size());
            for (OneShot shot : waiting) {
                if (waiting.remove(shot)) {
                    fired.add(shot);
                }
            }
            if (fired.isEmpty()) {
                return false;
            }
            idleSince = nanoClock.getAsLong();
            fired.forEach(OneShot::fire);
            return true;
        }

        private synchronized boolean retireIfIdle() {
            if (!added || !waiting.isEmpty() || nanoClock.getAsLong() - idleSince < IDLE_NANOS) {
                return false;
            }
            retired = true;
            added = false;
            byLog.remove(path, this);
            return true;
        }

        private void removeFromServer() {
            if (session.isClosed()) {
                return;
            }
            try {
                session.client().watchers().remove(this).ofType(WatcherType.Any).locally()
                        .inBackground((c, e) -> LOG.trace("{}: removed the idle watch of {}: rc {}", description,
                                path, e.getResultCode()))
                        .forPath(path);
            } catch (Exception e) {
                LOG.debug("{}: could not remove the idle watch of {}", description, path, e);
            }
        }

        void cancelled(OneShot shot) {
            if (waiting.remove(shot)) {
                idleSince = nanoClock.getAsLong();
            }
        }
    }

    /** One subscription: runs its callback at most once, unless cancelled first. */
    final class OneShot implements Subscription {
        private final LogWatch watch;
        private final Runnable onChange;
        private final AtomicBoolean done = new AtomicBoolean();

        OneShot(LogWatch watch, Runnable onChange) {
            this.watch = watch;
            this.onChange = onChange;
        }

        /** Runs the callback now, unless it ran or the subscription was cancelled. */
        void fire() {
            if (done.compareAndSet(false, true)) {
                watch.cancelled(this);
                try {
                    onChange.run();
                } catch (RuntimeException e) {
                    LOG.warn("{}: change-log watch callback for {} threw", description, watch.path, e);
                }
            }
        }

        @Override
        public void cancel() {
            if (done.compareAndSet(false, true)) {
                watch.cancelled(this);
            }
        }
    }
}
