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
import io.hybris.HybrisException;
import io.hybris.spi.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One subscription's thread: reads pages of the change feed from its cursor, hands each change to the listener
 * (again after a pause if the listener throws), and when it has caught up waits for the store's change watch —
 * or at most {@value #RECHECK_SECONDS} s, in case a watch was lost — before reading on. Failures to reach the
 * metadata store are retried with a growing pause (up to 5 s); only an expired cursor, the client's close, an
 * {@link Error} from the listener or an interrupt of the thread end it, each with {@code onStopped}. Delivery is
 * at least once: the cursor moves past a change only after the listener returned.
 */
final class ChangeSubscriber implements ChangeSubscription, Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeSubscriber.class);
    /** The longest pause before reading a page again that had more commits but served none of them. */
    static final long MAX_BEHIND_PAUSE_MILLIS = 1000;
    static final long RECHECK_SECONDS = 30;
    private static final long MAX_PAUSE_MILLIS = 5_000;
    private static final int PAGE_COMMITS = 256;

    private final ChangeFeed feed;
    private final String container;
    private final String prefix;
    private final ChangeListener listener;
    private final Consumer<ChangeSubscriber> onEnd;
    private final Object lock = new Object();
    private volatile ChangeCursor cursor;
    private final AtomicBoolean closed = new AtomicBoolean();
    private boolean signalled; // guarded by lock
    /** Whether the listener's onChange is running (on the subscription's thread). Guarded by lock. */
    private boolean delivering;
    private volatile Thread thread;

    ChangeSubscriber(ChangeFeed feed, String container, String prefix, ChangeCursor cursor, ChangeListener listener,
                     Consumer<ChangeSubscriber> onEnd) {
        this.feed = feed;
        this.container = container;
        this.prefix = prefix;
        this.cursor = cursor;
        this.listener = listener;
        this.onEnd = onEnd;
    }

    void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether {@code t} is this subscription's thread. */
    boolean runsOn(Thread t) {
        return thread == t;
    }

    @Override
    public ChangeCursor cursor() {
        return cursor;
    }

    @Override
    public boolean isActive() {
        return !closed.get();
    }

    @Override
    public void run() {
        long pause = 0;
        long behind = 0;
        try {
            while (!closed.get()) {
                try {
                    ChangeCursor from = cursor;
                    ChangePage page = feed.page(container, prefix, cursor, PAGE_COMMITS);
                    pause = 0;
                    for (Change change : page.changes()) {
                        if (!deliver(change)) {
                            return;
                        }
                        cursor = change.cursor();
                    }
                    cursor = page.cursor();
                    if (!page.hasMore()) {
                        behind = 0;
                        awaitChange();
                    } else if (cursor.equals(from)) {
                        // more, but none of it served yet: the server that answered lags the one that counted it
                        // (a read mode other than consistent); read again after a pause, not in a busy loop
                        behind = Math.min(MAX_BEHIND_PAUSE_MILLIS, Math.max(20, behind * 2));
                        sleep(behind);
                    } else {
                        behind = 0;
                    }
                } catch (ChangeCursorExpiredException | ClientClosedException e) {
                    stop(e);
                    return;
                } catch (RuntimeException e) {
                    if (closed.get()) {
                        return;
                    }
                    if (e instanceof java.util.concurrent.RejectedExecutionException) {
                        stopClientClosed(System.nanoTime()); // the client's threads are shut down: it closed
                        return;
                    }
                    pause = Math.min(MAX_PAUSE_MILLIS, Math.max(100, pause * 2));
                    LOG.warn("change feed of container {}: reading from {} failed, retrying in {} ms: {}", container,
                            cursor, pause, e.toString());
                    sleep(pause);
                }
            }
        } catch (Error e) {
            // the listener (or the JVM) threw an Error: the subscription ends, and says so, rather than leave a
            // dead thread behind a subscription that reports itself active
            stop(new HybrisException("the change subscription to container " + container + " ended at " + cursor
                    + ": " + e + " (subscribe again from that cursor)", e));
            throw e;
        } finally {
            onEnd.accept(this);
        }
    }

    /** Hands one change to the listener until it returns normally; false if the subscription ended meanwhile. */
    private boolean deliver(Change change) {
        long pause = 0;
        while (!closed.get()) {
            try {
                synchronized (lock) {
                    if (closed.get()) {
                        // a closing client that checked for a call in progress before this one started has told
                        // the listener onStopped: no onChange after that (checked where the close checks)
                        return false;
                    }
                    delivering = true;
                }
                try {
                    listener.onChange(change);
                    cursor = change.cursor(); // before a closing client, waiting for this call, names the cursor
                } finally {
                    synchronized (lock) {
                        delivering = false;
                        lock.notifyAll();
                    }
                }
                return true;
            } catch (Exception | Error e) {
                if (e instanceof Error && !(e instanceof AssertionError)) {
                    throw (Error) e;
                }
                pause = Math.min(MAX_PAUSE_MILLIS, Math.max(100, pause * 2));
                LOG.warn("change feed of container {}: the listener failed on {} ({}), delivering it again in {} ms",
                        container, change.key(), change.version().version(), pause, e);
                sleep(pause);
            }
        }
        return false;
    }

    /** Waits until the store's watch fires, the subscription is closed, or the recheck interval passes. */
    private void awaitChange() {
        Subscription watch = feed.watch(container, cursor, this::signal);
        try {
            synchronized (lock) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECHECK_SECONDS);
                while (!signalled && !closed.get()) {
                    long left = until - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
                signalled = false;
            }
        } catch (InterruptedException e) {
            interrupted();
        } finally {
            watch.cancel();
        }
    }

    private void signal() {
        synchronized (lock) {
            signalled = true;
            lock.notifyAll();
        }
    }

    private void sleep(long millis) {
        synchronized (lock) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            try {
                while (!closed.get()) {
                    long left = until - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
                return;
            } catch (InterruptedException e) {
                // handled below, outside the lock: onStopped runs the listener's code
            }
        }
        interrupted();
    }

    /**
     * The thread was interrupted (only the listener's code can: close() does not interrupt it). The subscription
     * ends, and says so, rather than stop silently behind a listener that is never told.
     */
    private void interrupted() {
        Thread.currentThread().interrupt();
        stop(new HybrisException("the change subscription to container " + container + " ended at " + cursor
                + ": its thread was interrupted (subscribe again from that cursor)"));
    }

    private void stop(HybrisException cause) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        signal();
        tell(cause);
    }

    /** Calls {@code onStopped}: once, by whoever ended the subscription. */
    private void tell(HybrisException cause) {
        try {
            listener.onStopped(cause);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            // an Error too (a failed assertion, a class missing): on the thread closing the client it used to end
            // close() there, leaving the other subscriptions running and the client's threads and stores open
            LOG.warn("change feed of container {}: onStopped threw", container, e);
        }
    }

    /**
     * The client is closing: end with {@link ClientClosedException}, told once the listener call in progress (if
     * any, and not on this thread) returned or {@code untilNanos} ({@link System#nanoTime}) passed. It used to be
     * told at once, while that call still ran on the subscription's thread, and the client's close returned with
     * the listener still running. Does not wait for the thread otherwise (it may be in a metadata call, which the
     * client's close ends next).
     */
    void stopClientClosed(long untilNanos) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        signal();
        if (thread != Thread.currentThread()) {
            synchronized (lock) {
                try {
                    for (long left = untilNanos - System.nanoTime(); delivering && left > 0;
                         left = untilNanos - System.nanoTime()) {
                        lock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        tell(new ClientClosedException("the Hybris client was closed; the subscription to container " + container
                + " ended at " + cursor));
    }

    @Override
    public void close() {
        closed.set(true);
        signal();
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
