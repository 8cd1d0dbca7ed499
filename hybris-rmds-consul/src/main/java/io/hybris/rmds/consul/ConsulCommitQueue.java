/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.VersionConflictException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Group commit: the commits of one container made concurrently through one store wait in that container's queue
 * and go to Consul together, so they do not race each other on the container's change-log head. There is no
 * committer thread: the first caller to find its container idle commits (the <em>leader</em>); callers arriving
 * meanwhile queue; when the leader's transaction is answered it promotes the oldest queued caller, which commits
 * everything queued by then in one batch, and so on; a leader that finds more commits queued after its own
 * batch commits up to {@value #EXTRA_BATCHES} more batches before handing over, which saves waking a thread per
 * batch. A lone caller therefore commits on its own thread at once, and a batch forms only while another is in
 * flight — no commit waits for company.
 *
 * <p>A batch takes queued commits in arrival order while it stays within Consul's limits: at most
 * {@value ConsulMetadataStore#MAX_TRANSACTION_OPERATIONS} operations counting the head's check-and-set and one
 * record per commit, at most {@value #MAX_BATCH_BYTES} bytes of request (estimated; a commit alone may be larger),
 * and no key twice (a later commit of a key already in the batch waits for the next one, so it sees the earlier
 * commit's outcome, as if sent after it). A caller still queued when its give-up time passes, or interrupted,
 * leaves the queue and fails with {@link MetadataUnavailableException}: nothing of it was sent. Once its commit is
 * in a batch, a caller waits for that batch's outcome (bounded by the batch's own give-up time) and keeps its
 * interrupt flag.
 *
 * <p>An interrupt of the leader must not cut short a transaction that carries other callers' commits: it would leave
 * their outcome unknown although nobody interrupted them (the HTTP client ends a request when its thread is
 * interrupted). So a batch with any commit but the leader's own is sent from a thread of this queue while the leader
 * waits for it, interrupts deferred; a leader committing only its own commit sends it itself, and an interrupt then
 * affects that commit alone. {@link #close()} stops those threads. Thread-safe.
 */
final class ConsulCommitQueue implements AutoCloseable {
    /** How many request bytes a batch of several commits may carry: Consul's 512 KiB, with room to spare. */
    static final long MAX_BATCH_BYTES = 384 * 1024;
    /** How many batches a leader commits after its own before handing over. */
    static final int EXTRA_BATCHES = 2;

    /** Commits one batch of one container's commits, giving each its outcome. */
    @FunctionalInterface
    interface BatchCommitter {
        /**
         * Commits {@code batch} and calls {@link ConsulCommit#succeed} or {@link ConsulCommit#fail} on each.
         *
         * @param container   the container all the commits update
         * @param batch       the commits, in arrival order
         * @param giveUpNanos when to stop retrying ({@link System#nanoTime()}), at the latest
         */
        void commit(String container, List<ConsulCommit> batch, long giveUpNanos);
    }

    /**
     * One container's queue; {@code leading} while some caller commits for it. A lane that goes idle leaves the map
     * ({@code retired}), so a client writing to many containers keeps no queue for the idle ones; a caller that
     * took a retired lane from the map just before takes the map's current one instead.
     */
    private static final class Lane {
        final ArrayDeque<ConsulCommit> queue = new ArrayDeque<>();
        boolean leading;
        boolean retired;
    }

    private final Map<String, Lane> lanes = new ConcurrentHashMap<>();
    private final BatchCommitter committer;
    private final String description;
    /** How many times a leader handed the lane over to a queued caller, for tests. */
    private final AtomicInteger handovers = new AtomicInteger();
    /** Sends the batches that carry other callers' commits; idle threads exit after a minute. */
    private final ExecutorService shielded;

    ConsulCommitQueue(BatchCommitter committer, String description) {
        this.committer = committer;
        this.description = description;
        this.shielded = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                ConsulTransport.daemonThreads("hybris-consul-commit-"));
    }

    /** Stops the threads that send batches; a batch committed afterwards is sent by its leader. Idempotent. */
    @Override
    public void close() {
        shielded.shutdown();
    }

    /**
     * Commits {@code commit} (all its updates in {@code container}), alone or with the container's other queued
     * commits; returns when it has its outcome.
     *
     * @throws VersionConflictException if a version check of the commit failed (nothing of it was written)
     */
    void commit(String container, ConsulCommit commit) throws VersionConflictException {
        commit.waitOnCurrentThread();
        Lane lane;
        while (true) {
            lane = lanes.computeIfAbsent(container, c -> new Lane());
            synchronized (lane) {
                if (lane.retired) {
                    continue; // went idle and left the map after we took it
                }
                lane.queue.addLast(commit);
                if (!lane.leading) {
                    lane.leading = true;
                    commit.moveTo(ConsulCommit.State.LEADER);
                }
                break;
            }
        }
        boolean interrupted = false;
        try {
            while (true) {
                ConsulCommit.State s = commit.state();
                if (s == ConsulCommit.State.LEADER) {
                    interrupted |= Thread.interrupted(); // not to cut short a transaction carrying others' commits
                    lead(container, lane, commit);
                } else if (s == ConsulCommit.State.DONE) {
                    break;
                } else if (s == ConsulCommit.State.QUEUED) {
                    long left = commit.giveUpNanos() - System.nanoTime();
                    boolean interruptedNow = Thread.interrupted(); // clears the flag: kept in interrupted
                    if (interruptedNow || left <= 0) {
                        interrupted |= interruptedNow;
                        if (withdraw(lane, commit)) {
                            throw withdrawn(container, commit, interruptedNow);
                        }
                        continue;
                    }
                    LockSupport.parkNanos(this, left);
                } else { // TAKEN: the batch ends within its own give-up time
                    interrupted |= Thread.interrupted();
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        commit.outcome();
    }

    /** How many containers have a queue now (busy ones only), for tests. */
    int lanes() {
        return lanes.size();
    }

    /** How many times a leader handed its lane over to a queued caller, for tests. */
    int handovers() {
        return handovers.get();
    }

    /** How many commits wait in {@code container}'s queue (not yet in a batch), for tests. */
    int queued(String container) {
        Lane lane = lanes.get(container);
        if (lane == null) {
            return 0;
        }
        synchronized (lane) {
            return (int) lane.queue.stream().filter(c -> c.state() == ConsulCommit.State.QUEUED).count();
        }
    }

    /**
     * Takes the next batch from the queue and commits it; while more commits are queued, commits up to
     * {@value #EXTRA_BATCHES} more batches itself (a wake-up of another thread less per batch), then promotes the
     * oldest queued caller or marks the lane idle. Every batch it commits retries only until the leader's own give-up
     * time (the leader is older than every commit queued behind it), so the leader's call stays bounded too.
     */
    private void lead(String container, Lane lane, ConsulCommit leader) {
        List<ConsulCommit> batch;
        synchronized (lane) {
            batch = takeBatch(lane);
        }
        for (int served = 0; ; served++) {
            boolean failed = false;
            try {
                if (batch.size() == 1 && batch.get(0) == leader) {
                    committer.commit(container, batch, leader.giveUpNanos());
                } else {
                    commitShielded(container, batch, leader.giveUpNanos());
                }
            } catch (RuntimeException e) {
                failed = true;
                batch.forEach(c -> c.fail(e));
            } catch (Error e) {
                // each call of the batch ends with it (its transaction may have been sent: outcome unknown), and
                // the queue is handed over below as after any failure, so no caller waits for ever
                failed = true;
                batch.forEach(c -> c.fail(new MetadataUnavailableException("commit of " + c.what() + " on "
                        + description + " failed with " + e + "; its outcome is unknown", e)));
            }
            for (ConsulCommit c : batch) {
                if (!c.hasOutcome()) {
                    failed = true;
                    c.fail(new IllegalStateException("commit of " + c.what() + " on " + description
                            + " was given no outcome"));
                }
            }
            List<ConsulCommit> done = batch;
            batch = null;
            synchronized (lane) {
                ConsulCommit next = lane.queue.peekFirst();
                if (next == null) {
                    lane.leading = false;
                    lane.retired = true;
                    lanes.remove(container, lane);
                } else if (served < EXTRA_BATCHES && !failed && System.nanoTime() - leader.giveUpNanos() < 0) {
                    batch = takeBatch(lane);
                } else {
                    handovers.incrementAndGet();
                    next.moveTo(ConsulCommit.State.LEADER);
                }
            }
            done.forEach(c -> c.moveTo(ConsulCommit.State.DONE));
            if (batch == null) {
                return;
            }
        }
    }

    /**
     * Commits a batch carrying other callers' commits from a thread of this queue, waiting for it with interrupts
     * deferred (the wait is bounded: the committer retries only until {@code giveUpNanos}, plus one request).
     */
    private void commitShielded(String container, List<ConsulCommit> batch, long giveUpNanos) {
        Future<?> sent;
        try {
            sent = shielded.submit(() -> committer.commit(container, batch, giveUpNanos));
        } catch (RejectedExecutionException closed) {
            committer.commit(container, batch, giveUpNanos); // the store is closing: the request fails anyway
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    sent.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException("commit of a batch failed", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static List<ConsulCommit> takeBatch(Lane lane) {
        List<ConsulCommit> batch = take(lane.queue);
        for (ConsulCommit c : batch) {
            c.moveTo(ConsulCommit.State.TAKEN);
        }
        return batch;
    }

    /** The longest prefix of the queue that fits in one transaction (at least one commit); removed from it. */
    private static List<ConsulCommit> take(ArrayDeque<ConsulCommit> queue) {
        List<ConsulCommit> batch = new ArrayList<>();
        int operations = 1; // the head's check-and-set
        long bytes = 0;
        while (!queue.isEmpty()) {
            ConsulCommit c = queue.peekFirst();
            if (!batch.isEmpty() && (operations + c.operations() > ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS
                    || bytes + c.bytes() > MAX_BATCH_BYTES
                    || batch.stream().anyMatch(b -> c.updates().stream().anyMatch(u -> b.updates(u.key()))))) {
                break;
            }
            batch.add(queue.pollFirst());
            operations += c.operations();
            bytes += c.bytes();
        }
        return batch;
    }

    /** Removes a commit that is still queued (not promoted, not taken); returns false if it no longer is. */
    private static boolean withdraw(Lane lane, ConsulCommit commit) {
        synchronized (lane) {
            if (commit.state() != ConsulCommit.State.QUEUED) {
                return false;
            }
            lane.queue.remove(commit);
            commit.moveTo(ConsulCommit.State.DONE);
            return true;
        }
    }

    private MetadataUnavailableException withdrawn(String container, ConsulCommit commit, boolean interrupted) {
        return new MetadataUnavailableException(commit.operation() + " of " + commit.what() + " on " + description
                + (interrupted ? " interrupted while waiting for earlier commits to container " + container
                : " waited for earlier commits to container " + container + " until its operation-timeout")
                + "; nothing was written");
    }
}
