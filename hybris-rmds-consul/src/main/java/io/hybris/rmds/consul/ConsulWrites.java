/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.InvalidRequestException;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.support.MetadataUpdates;

import java.util.List;

/**
 * The conditional updates of a {@link ConsulMetadataStore}. Each update (a conditional update, or an atomic update
 * of several keys) is one commit: its keys' check-and-sets plus, per container, the change log's head
 * check-and-set and the commit's record ({@link ConsulChangeLog}), all in one {@code /v1/txn} transaction. A commit
 * to one container joins that container's queue ({@link ConsulCommitQueue}), so concurrent commits through this
 * store go out together in one transaction with one head check-and-set ({@link ConsulBatchWrite}), each still
 * getting its own outcome; an atomic update spanning containers is sent on its own. Checks the transaction limit
 * first. Thread-safe.
 */
final class ConsulWrites implements AutoCloseable {
    /** Operations a commit sent alone adds per container besides its keys: the head check-and-set and the record. */
    static final int LOG_OPERATIONS = 2;

    private final ConsulKv kv;
    private final ConsulTransport transport;
    private final ConsulBatchWrite batches;
    private final ConsulCommitQueue queue;
    private final String description;
    private final long retryNanos;

    ConsulWrites(ConsulTransport transport, ConsulKv kv, ConsulChangeLog log, ConsulSettings settings,
                 String description) {
        this.kv = kv;
        this.transport = transport;
        this.batches = new ConsulBatchWrite(transport, kv, log, settings, description);
        this.queue = new ConsulCommitQueue((container, batch, giveUp) -> batches.commit(batch, giveUp),
                description);
        this.description = description;
        this.retryNanos = settings.operationTimeout().toNanos();
    }

    /** Stops the threads of the commit queue. */
    @Override
    public void close() {
        queue.close();
    }

    /** The transaction side, for tests. */
    ConsulBatchWrite batches() {
        return batches;
    }

    void write(List<MetadataUpdate> updates) throws VersionConflictException {
        transport.checkOpen();
        MetadataUpdates.requireDistinctKeys(updates);
        if (updates.isEmpty()) {
            return;
        }
        for (MetadataUpdate u : updates) {
            ConsulKv.casIndex(u.key(), u.expectedVersion());
        }
        ConsulCommit commit = new ConsulCommit(updates, kv.prefix().length(), System.nanoTime() + retryNanos);
        int operations = commit.operations() + commit.byContainer().size(); // and a head per container
        if (operations > ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS) {
            int max = ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS - LOG_OPERATIONS;
            throw new InvalidRequestException("atomic update of " + updates.size() + " keys (" + updates.get(0).key()
                    + ", ...) exceeds Consul's limit of " + ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS
                    + " operations per transaction (/v1/txn; " + LOG_OPERATIONS + " of them record the commit in the"
                    + " change log) on " + description + "; nothing was written: use at most " + max
                    + " keys per TPUT with the Consul metadata store");
        }
        if (commit.byContainer().size() == 1) {
            queue.commit(updates.get(0).key().container(), commit);
            return;
        }
        try {
            batches.commit(List.of(commit), commit.giveUpNanos());
        } catch (RuntimeException e) {
            commit.fail(e);
        }
        commit.outcome();
    }
}
