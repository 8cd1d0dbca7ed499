/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.examples.sync.SyncEvent.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps one local folder in sync with one Hybris container, in the mould of StackSync: a file's key is its path
 * relative to the folder, with '/'.
 *
 * <ul>
 *   <li>A scanner (every {@link SyncSettings#scanInterval()}, woken early by a folder watch) commits new files with
 *       {@code PutOptions.ifAbsent()}, changed files with {@code PutOptions.ifMatch(<version last synced>)} and
 *       deletions with {@code DeleteOptions.ifMatch(...)}, streaming each file.</li>
 *   <li>A change-feed subscription ({@link Hybris#subscribe}) applies remote versions and deletions, but only to
 *       files unchanged since the version last synced; it skips the echoes of this client's own commits (a change
 *       whose version is the one last synced).</li>
 *   <li>A lost race (a precondition failure, or a remote change to a file edited here) keeps both versions: the
 *       winner under the name, the local edit as {@code name (conflicted copy <client> <yyyy-MM-dd HHmmss>).ext},
 *       committed as a new file.</li>
 *   <li>What was last synced (per file: version and SHA-256; the feed cursor) is kept in the hidden
 *       {@value LocalFolder#STATE_DIR} directory of the folder, which is never synced: a restart resumes from the
 *       saved cursor without downloading again. The first start, and a cursor the feed no longer holds
 *       ({@link ChangeCursorExpiredException}), reconcile with a listing of the container instead.</li>
 * </ul>
 *
 * <p>Thread-safe: the scanner and the subscription's thread apply their changes under one lock. The
 * {@link Hybris} client is the caller's: closing the sync client leaves it open.
 *
 * <pre>{@code
 * try (SyncClient sync = SyncClient.start(hybris, "documents", Path.of("Documents"),
 *         SyncSettings.defaults().withListener(e -> System.out.println(e)))) {
 *     ...
 * }
 * }</pre>
 */
public final class SyncClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyncClient.class);
    private static final long WATCH_DEBOUNCE_MILLIS = 100;

    private final Object lock = new Object();
    private final Hybris hybris;
    private final String container;
    private final LocalFolder folder;
    private final SyncSettings settings;
    private final SyncState state;
    private final Reconciler reconciler;
    private final ScheduledExecutorService scanner;
    private final AtomicBoolean scanRequested = new AtomicBoolean();
    private volatile ChangeSubscription subscription;
    private volatile FolderWatcher watcher;
    private volatile boolean closed;

    private SyncClient(Hybris hybris, String container, Path folder, SyncSettings settings) {
        this.hybris = hybris;
        this.container = container;
        this.folder = new LocalFolder(folder);
        this.settings = settings;
        this.state = SyncState.load(this.folder.stateDir().resolve("state-" + container + ".properties"));
        String name = settings.clientName() != null ? settings.clientName() : hybris.config().clientId();
        this.reconciler = new Reconciler(this.folder, state,
                new RemoteFiles(hybris, container, this.folder.tmpDir()), name, this::emit);
        this.scanner = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hybris-sync-scan-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts syncing {@code folder} (created if missing) with {@code container}: reconciles with a listing on the
     * first start, then follows the change feed from the saved cursor and scans the folder.
     *
     * @throws HybrisException      if the container cannot be listed or subscribed to
     * @throws UncheckedIOException if the folder or its state cannot be read or written
     */
    public static SyncClient start(Hybris hybris, String container, Path folder, SyncSettings settings) {
        SyncClient client = new SyncClient(hybris, container, folder, settings);
        try {
            client.begin();
            return client;
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private void begin() {
        synchronized (lock) {
            if (state.cursor().isEmpty()) {
                resyncFromListing();
            }
        }
        subscribe();
        scanner.scheduleWithFixedDelay(this::scanQuietly, 0, settings.scanInterval().toMillis(),
                TimeUnit.MILLISECONDS);
        if (settings.watchFolder()) {
            try {
                watcher = FolderWatcher.start(folder, this::requestScan);
            } catch (IOException e) {
                LOG.warn("cannot watch {}; the periodic scan finds changes", folder.root(), e);
            }
        }
    }

    /** The synced folder (absolute). */
    public Path folder() {
        return folder.root();
    }

    /** Scans the folder now, on the calling thread, committing what changed (as the periodic scan does). */
    public void scanNow() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the sync client of " + folder.root() + " is closed");
            }
            reconciler.scan();
        }
    }

    private void resyncFromListing() {
        ChangeCursor from = hybris.latestCursor(container); // before listing: later changes come from the feed
        try {
            reconciler.resync();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        state.cursor(from);
        state.save();
    }

    private void subscribe() {
        ChangeSubscription s = hybris.subscribe(container, "", state.cursor().orElseThrow(), new ChangeListener() {
            @Override
            public void onChange(Change change) throws IOException {
                applyChange(change);
            }

            @Override
            public void onStopped(HybrisException cause) {
                if (cause instanceof ChangeCursorExpiredException && !closed) {
                    LOG.warn("{}: the change feed no longer holds the saved cursor; resyncing", folder.root());
                    recover();
                }
            }
        });
        subscription = s;
        if (closed) { // close() ran meanwhile (a resync after an expired cursor) and may have missed this one
            s.close();
        }
    }

    private void applyChange(Change change) throws IOException {
        synchronized (lock) {
            if (closed) {
                return; // not saved as applied: delivered again after a restart
            }
            try {
                reconciler.applyRemote(change.key(), change.version());
            } catch (IOException | RuntimeException e) {
                emit(new SyncEvent(Kind.FAILED, change.key(), "download: " + e.getMessage()));
                throw e; // the subscription delivers the change again after a pause
            }
            state.cursor(change.cursor());
            state.save();
        }
    }

    /** Resyncs by listing and follows the feed again from then on; retried after a scan interval if it fails. */
    private void recover() {
        try {
            scanner.execute(() -> {
                try {
                    synchronized (lock) {
                        if (closed) {
                            return;
                        }
                        resyncFromListing();
                    }
                    subscribe();
                } catch (RuntimeException e) {
                    emit(new SyncEvent(Kind.FAILED, "", "resync: " + e.getMessage()));
                    scanner.schedule(this::recover, settings.scanInterval().toMillis(), TimeUnit.MILLISECONDS);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    private void requestScan() {
        if (scanRequested.compareAndSet(false, true)) {
            try {
                scanner.schedule(this::scanQuietly, WATCH_DEBOUNCE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // closed
            }
        }
    }

    private void scanQuietly() {
        scanRequested.set(false);
        try {
            synchronized (lock) {
                if (!closed) {
                    reconciler.scan();
                }
            }
        } catch (RuntimeException e) { // an exception would end the periodic scan
            emit(new SyncEvent(Kind.FAILED, "", "scan: " + e.getMessage()));
        }
    }

    private void emit(SyncEvent event) {
        LOG.debug("{}: {}", folder.root(), event);
        try {
            settings.listener().accept(event);
        } catch (RuntimeException e) {
            LOG.warn("the sync listener threw on {}", event, e);
        }
    }

    /**
     * Stops syncing: no scan or remote change is applied after this returns (one in progress is finished first),
     * and the state is saved. Leaves the Hybris client open. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        FolderWatcher w = watcher;
        if (w != null) {
            try {
                w.close();
            } catch (IOException e) {
                LOG.debug("closing the folder watch", e);
            }
        }
        ChangeSubscription s = subscription;
        if (s != null) {
            s.close();
        }
        scanner.shutdown(); // a scan in progress finishes: interrupting it would leave its upload's outcome unknown
        try {
            scanner.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            state.save();
        }
    }
}
