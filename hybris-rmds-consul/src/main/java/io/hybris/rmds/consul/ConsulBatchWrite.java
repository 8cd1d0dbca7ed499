/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import org.kiwiproject.consul.model.kv.TxError;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Commits a batch of commits in one {@code /v1/txn} transaction: every commit's check-and-sets (index 0 to
 * create), then per container the change log's head check-and-set from {@code n} to {@code n + m} and the records
 * {@code n + 1 .. n + m} of the batch's {@code m} commits to it, in batch order ({@link ConsulChangeLog}). Consul
 * applies a transaction all or nothing and reports every operation that failed, so a 409 is sorted out per commit:
 * a commit whose key check failed gets its {@link VersionConflictException} (as if it had been sent alone at that
 * Raft index: its key was at another version; {@link VersionConflictException#mayHaveApplied()} if the transport
 * re-sent the transaction after a failed send, unless a key check of the answer passed, which an earlier send that
 * applied would have made fail) and the others are sent again without it; a failure only on a head
 * or a record (another client committed to the container first) re-reads the head and sends the batch again after
 * a short jittered pause ({@link HeadRaceBackoff}). A commit is retried until its give-up time; the batch's
 * requests retry transient failures until the earliest give-up time among the commits still in it and the
 * give-up time of the caller committing the batch, and every request ends by that time plus the rest of the store's
 * call-time bound (2 x connect-timeout + read-timeout) at the latest, so every caller's wait stays within the bound
 * however many requests its commit takes. A batch of several commits that Consul refuses
 * outright (ACL denied, too large) is re-sent one commit at a time, so only the commit at fault fails. Thread-safe.
 */
final class ConsulBatchWrite {
    /** Left at the end of a commit's call-time bound for handing its outcome over to the caller. */
    private static final long CALL_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final ConsulTransport transport;
    private final ConsulKv kv;
    private final ConsulChangeLog log;
    private final String description;
    private final long retryNanos;
    /** How long after its give-up time a commit's call must end: its last requests, within the call-time bound. */
    private final long slackNanos;

    ConsulBatchWrite(ConsulTransport transport, ConsulKv kv, ConsulChangeLog log, ConsulSettings settings,
                     String description) {
        this.transport = transport;
        this.kv = kv;
        this.log = log;
        this.description = description;
        this.retryNanos = settings.operationTimeout().toNanos();
        // the store's call-time bound is operation-timeout + 2 x connect-timeout + read-timeout: a commit retries
        // until its give-up time (operation-timeout), and its requests must all be answered by the rest, less a
        // margin for the hand-over of the outcome to the caller's thread
        long slack = settings.connectTimeout().multipliedBy(2).plus(settings.readTimeout()).toNanos();
        this.slackNanos = Math.max(slack / 2, slack - CALL_MARGIN_NANOS);
    }

    /**
     * Commits {@code batch} (see the class documentation), giving every commit its outcome, retrying until
     * {@code giveUpNanos} ({@link System#nanoTime()}) at the latest.
     */
    void commit(List<ConsulCommit> batch, long giveUpNanos) {
        if (batch.size() == 1) {
            attempt(batch, giveUpNanos);
            return;
        }
        try {
            attempt(batch, giveUpNanos);
        } catch (MetadataUnavailableException e) {
            throw e; // the outcome is unknown for every commit of the batch, or nothing was written
        } catch (MetadataStoreException refused) {
            for (ConsulCommit c : batch) {
                if (!c.hasOutcome()) {
                    try {
                        attempt(List.of(c), giveUpNanos);
                    } catch (RuntimeException e) {
                        c.fail(e);
                    }
                }
            }
        }
    }

    /**
     * The earliest of {@code giveUpNanos} and the give-up times of {@code commits} ({@link System#nanoTime()}
     * values, compared by difference as they may wrap): a batch retries only while every caller in it may wait.
     */
    static long earliestGiveUp(long giveUpNanos, List<ConsulCommit> commits) {
        long giveUp = giveUpNanos;
        for (ConsulCommit c : commits) {
            giveUp = c.giveUpNanos() - giveUp < 0 ? c.giveUpNanos() : giveUp;
        }
        return giveUp;
    }

    private void attempt(List<ConsulCommit> batch, long giveUpNanos) {
        List<ConsulCommit> pending = new ArrayList<>(batch);
        boolean fresh = false; // read the heads afresh: the last attempt lost on one
        // a send of this batch went out more than once: it may have applied, and every commit still pending was in it
        boolean resent = false;
        for (int lost = 0; ; ) {
            transport.checkOpen();
            long giveUp = earliestGiveUp(giveUpNanos, pending);
            // every request of the batch ends by then: the earliest call deadline of its callers (the committing
            // one's included), so a commit needing several requests (the head, the transaction, a lost race)
            // still ends within the store's call-time bound
            long deadline = giveUp + slackNanos;
            ConsulCommit first = pending.get(0);
            String operation = first.operation();
            String what = pending.size() == 1 ? first.what()
                    : first.what() + " and " + (pending.size() - 1) + " other commits";
            Map<String, List<ConsulCommit>> byContainer = new LinkedHashMap<>();
            List<ConsulCommit> owners = new ArrayList<>();
            List<MetadataUpdate> updates = new ArrayList<>();
            for (ConsulCommit c : pending) {
                for (MetadataUpdate u : c.updates()) {
                    updates.add(u);
                    owners.add(c);
                }
                for (String container : c.byContainer().keySet()) {
                    byContainer.computeIfAbsent(container, x -> new ArrayList<>()).add(c);
                }
            }
            ArrayNode ops;
            try {
                ops = kv.casOperations(updates);
            } catch (VersionConflictException e) {
                throw new IllegalStateException("versions are checked before a commit is queued", e);
            }
            Map<String, ConsulChangeLog.Head> heads = new LinkedHashMap<>();
            for (Map.Entry<String, List<ConsulCommit>> e : byContainer.entrySet()) {
                String container = e.getKey();
                ConsulChangeLog.Head head = fresh ? log.readHead(container, operation, what, giveUp, deadline)
                        : log.head(container, operation, what, giveUp, deadline);
                heads.put(container, head);
                log.appendOperations(ops, container, head, e.getValue().stream().map(c -> c.record(container))
                        .toList());
            }
            ConsulTransport.Reply reply = transport.transaction(ops, false, operation, what, giveUp, deadline);
            resent |= reply.resent();
            TxResponse response = transport.parseTransaction(reply, operation, what);
            if (reply.code() == 200) {
                int headOp = updates.size();
                for (Map.Entry<String, ConsulChangeLog.Head> e : heads.entrySet()) {
                    int records = byContainer.get(e.getKey()).size();
                    Value result = headOp < response.results().size()
                            ? response.results().get(headOp).get("KV") : null;
                    log.committed(e.getKey(), e.getValue(), records, result);
                    headOp += 1 + records;
                }
                pending.forEach(ConsulCommit::succeed);
                return;
            }
            BitSet failedKeys = new BitSet();
            boolean headLost = response.errors().isEmpty();
            for (TxError err : response.errors()) {
                int op = err.opIndex().map(i -> i.intValue()).orElse(-1);
                if (op >= 0 && op < updates.size()) {
                    failedKeys.set(op);
                } else {
                    headLost = true;
                }
            }
            if (resent && !response.errors().isEmpty() && failedKeys.cardinality() < updates.size()) {
                // a key check passed: no earlier send applied, or it would have moved every key of the commits
                // still pending (all were in it): the conflicts below, and later ones, are definite
                resent = false;
            }
            if (!failedKeys.isEmpty()) {
                failConflicts(updates, owners, failedKeys, response.errors(), resent);
                pending.removeIf(ConsulCommit::hasOutcome);
            } else if (response.errors().isEmpty()) { // nothing named: cannot tell whose check failed
                for (ConsulCommit c : pending) {
                    c.fail(conflict(c, "", resent));
                }
                return;
            }
            fresh = headLost;
            if (headLost) {
                heads.keySet().forEach(log::forget);
                long now = System.nanoTime();
                for (ConsulCommit c : pending) {
                    if (now - c.giveUpNanos() > 0 || now - giveUpNanos > 0) {
                        c.fail(new MetadataUnavailableException(c.operation() + " of " + c.what() + " on "
                                + description + " kept losing the race for its container's change log for "
                                + TimeUnit.NANOSECONDS.toMillis(retryNanos) + " ms (operation-timeout); nothing was"
                                + " written"));
                    }
                }
                pending.removeIf(ConsulCommit::hasOutcome);
                if (pending.isEmpty()) {
                    return;
                }
                HeadRaceBackoff.pause(lost++);
            }
            if (pending.isEmpty()) {
                return;
            }
        }
    }

    /** Fails each commit owning a failed key operation with a conflict naming its failed keys. */
    private static void failConflicts(List<MetadataUpdate> updates, List<ConsulCommit> owners, BitSet failed,
                                      List<TxError> errors, boolean resent) {
        Map<ConsulCommit, StringBuilder> why = new LinkedHashMap<>();
        for (TxError err : errors) {
            int op = err.opIndex().map(i -> i.intValue()).orElse(-1);
            if (op >= 0 && op < updates.size() && failed.get(op)) {
                ConsulCommit owner = owners.get(op);
                StringBuilder b = why.computeIfAbsent(owner, o -> new StringBuilder());
                b.append(b.length() == 0 ? "" : "; ").append(owner.updates().size() == 1 ? ""
                        : updates.get(op).key() + " (expected version " + updates.get(op).expectedVersion() + "): ")
                        .append(err.what().orElse("version check failed"));
            }
        }
        why.forEach((c, b) -> c.fail(conflict(c, b.toString(), resent)));
    }

    /** A commit's conflict; {@code resent}: the transaction was re-sent, and an earlier send may have applied it. */
    private static VersionConflictException conflict(ConsulCommit c, String why, boolean resent) {
        String outcome = resent ? "the transaction was re-sent after a lost answer, and the earlier send may have"
                + " applied it" : "nothing written";
        if (c.updates().size() == 1) {
            MetadataUpdate u = c.updates().get(0);
            return new VersionConflictException((u.expectedVersion().isAbsent()
                    ? u.key() + " already exists (expected ABSENT)"
                    : u.key() + " is no longer at version " + u.expectedVersion() + " or does not exist")
                    + (resent ? " (" + outcome + ")" : ""), null, resent);
        }
        return new VersionConflictException("atomic update of " + c.updates().size() + " keys aborted, " + outcome
                + ": " + (why.isEmpty() ? "a version check failed" : why), null, resent);
    }
}
