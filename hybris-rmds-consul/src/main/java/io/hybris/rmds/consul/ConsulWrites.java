/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.support.MetadataUpdates;
import org.kiwiproject.consul.model.kv.TxError;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The conditional updates of a {@link ConsulMetadataStore}: one {@code /v1/txn} transaction of the keys'
 * check-and-sets (index 0 to create) plus, per container, the change log's head check-and-set and record
 * ({@link ConsulChangeLog}). A transaction that fails only on a head (another commit to the container came
 * first) is sent again with the new head, for at most operation-timeout; one that fails on a key is a
 * {@link VersionConflictException}. Thread-safe.
 */
final class ConsulWrites {
    /** Operations a commit adds per container: the head check-and-set and the record. */
    static final int LOG_OPERATIONS = 2;

    private final ConsulTransport transport;
    private final ConsulKv kv;
    private final ConsulChangeLog log;
    private final String description;
    private final long retryNanos;

    ConsulWrites(ConsulTransport transport, ConsulKv kv, ConsulChangeLog log, ConsulSettings settings,
                 String description) {
        this.transport = transport;
        this.kv = kv;
        this.log = log;
        this.description = description;
        this.retryNanos = settings.operationTimeout().toNanos();
    }

    void write(List<MetadataUpdate> updates) throws VersionConflictException {
        transport.checkOpen();
        MetadataUpdates.requireDistinctKeys(updates);
        if (updates.isEmpty()) {
            return;
        }
        Map<String, List<MetadataUpdate>> byContainer = new LinkedHashMap<>();
        for (MetadataUpdate u : updates) {
            byContainer.computeIfAbsent(u.key().container(), c -> new ArrayList<>()).add(u);
        }
        int operations = updates.size() + LOG_OPERATIONS * byContainer.size();
        if (operations > ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS) {
            int max = ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS - LOG_OPERATIONS;
            throw new InvalidRequestException("atomic update of " + updates.size() + " keys (" + updates.get(0).key()
                    + ", ...) exceeds Consul's limit of " + ConsulMetadataStore.MAX_TRANSACTION_OPERATIONS
                    + " operations per transaction (/v1/txn; " + LOG_OPERATIONS + " of them record the commit in the"
                    + " change log) on " + description + "; nothing was written: use at most " + max
                    + " keys per TPUT with the Consul metadata store");
        }
        boolean single = updates.size() == 1;
        String what = single ? updates.get(0).key().toString()
                : updates.size() + " keys (" + updates.get(0).key() + ", ...)";
        String operation = single ? "conditional update" : "atomic update";
        long giveUp = System.nanoTime() + retryNanos;
        for (int attempt = 0; ; attempt++) {
            ArrayNode ops = kv.casOperations(updates);
            Map<String, ConsulChangeLog.Head> heads = new LinkedHashMap<>();
            for (Map.Entry<String, List<MetadataUpdate>> e : byContainer.entrySet()) {
                ConsulChangeLog.Head head = attempt == 0 ? log.head(e.getKey(), operation, what)
                        : log.readHead(e.getKey(), operation, what);
                heads.put(e.getKey(), head);
                log.appendOperations(ops, e.getKey(), head, e.getValue());
            }
            ConsulTransport.Reply reply = transport.transaction(ops, false, operation, what);
            TxResponse response = transport.parseTransaction(reply, operation, what);
            if (reply.code() == 200) {
                int headOp = updates.size();
                for (Map.Entry<String, ConsulChangeLog.Head> e : heads.entrySet()) {
                    Value result = headOp < response.results().size()
                            ? response.results().get(headOp).get("KV") : null;
                    log.committed(e.getKey(), e.getValue(), result);
                    headOp += LOG_OPERATIONS;
                }
                return;
            }
            StringBuilder why = new StringBuilder();
            boolean keyFailed = false;
            for (TxError err : response.errors()) {
                int op = err.opIndex().map(i -> i.intValue()).orElse(-1);
                if (op >= 0 && op < updates.size()) {
                    keyFailed = true;
                    why.append(why.length() == 0 ? "" : "; ").append(single ? "" : updates.get(op).key()
                            + " (expected version " + updates.get(op).expectedVersion() + "): ")
                            .append(err.what().orElse("version check failed"));
                }
            }
            if (keyFailed || response.errors().isEmpty()) {
                throw conflict(updates, single, why.toString());
            }
            // lost only on a change-log head: another commit to the container came first; go again
            heads.keySet().forEach(log::forget);
            if (System.nanoTime() - giveUp > 0) {
                throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                        + " kept losing the race for its container's change log for " + TimeUnit.NANOSECONDS
                        .toMillis(retryNanos) + " ms (operation-timeout); nothing was written");
            }
            pause(attempt);
        }
    }

    private static VersionConflictException conflict(List<MetadataUpdate> updates, boolean single, String why) {
        if (single) {
            MetadataUpdate u = updates.get(0);
            return new VersionConflictException(u.expectedVersion().isAbsent()
                    ? u.key() + " already exists (expected ABSENT)"
                    : u.key() + " is no longer at version " + u.expectedVersion() + " or does not exist");
        }
        return new VersionConflictException("atomic update of " + updates.size()
                + " keys aborted, nothing written: " + (why.isEmpty() ? "a version check failed" : why));
    }

    /** A short random pause after losing the head race, growing with the attempts, so contenders spread out. */
    private static void pause(int attempt) {
        long maxMicros = Math.min(20_000, 500L << Math.min(attempt, 5));
        try {
            TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(maxMicros / 2, maxMicros));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("update interrupted while retrying the change-log head; nothing"
                    + " was written", e);
        }
    }
}
