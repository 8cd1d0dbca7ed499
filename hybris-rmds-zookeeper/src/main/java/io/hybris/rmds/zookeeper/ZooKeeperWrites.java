/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.InvalidRequestException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.support.MetadataUpdates;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conditional updates of a {@link ZooKeeperMetadataStore}: each is one {@code multi} of the keys' creates
 * ({@link io.hybris.spi.MetadataVersion#ABSENT}) or version-checked {@code setData}s and the sequential create of
 * the commit's change-log record ({@link ZooKeeperChangeLog}), so a commit and its record land together or not at
 * all; one larger than the servers accept is refused before it is sent ({@link RequestSize}). A record refused
 * because its log generation has used its last name is written again to the next generation
 * ({@link ZooKeeperChangeLog#rollOver}). A conflict found by a
 * {@code multi} that Curator re-sent after a lost answer says the earlier send may have applied
 * ({@link VersionConflictException#mayHaveApplied()}). Thread-safe.
 */
final class ZooKeeperWrites {
    /** How many full change-log generations one write moves past before it gives up. */
    private static final int MAX_ROLLOVERS = 16;
    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final ZooKeeperLayout layout;
    private final ZooKeeperChangeLog log;
    private final RequestSize size;
    private final Set<String> knownContainers = ConcurrentHashMap.newKeySet();

    ZooKeeperWrites(ZooKeeperSession session, ZooKeeperLayout layout, ZooKeeperChangeLog log, RequestSize size) {
        this.session = session;
        this.size = size;
        this.client = session.client();
        this.layout = layout;
        this.log = log;
    }

    /** Applies the updates and their change-log record atomically. */
    void write(List<MetadataUpdate> updates) throws VersionConflictException {
        session.checkOpen();
        MetadataUpdates.requireDistinctKeys(updates);
        if (updates.isEmpty()) {
            return;
        }
        boolean single = updates.size() == 1;
        String what = single ? updates.get(0).key().toString()
                : updates.size() + " keys (" + updates.get(0).key() + ", ...)";
        String operation = single ? "conditional update" : "atomic update";
        long resends = 0; // multis of this write Curator re-sent: each earlier send may have applied
        List<ZooKeeperChangeLog.Append> records = List.of();
        for (int attempt = 0; ; attempt++) {
            try {
                ensureContainers(updates, operation, what);
                log.ensure(updates);
                List<CuratorOp> ops = new ArrayList<>(updates.size() + 1);
                for (MetadataUpdate u : updates) {
                    String path = layout.path(u.key());
                    if (u.expectedVersion().isAbsent()) {
                        ops.add(client.transactionOp().create().withMode(CreateMode.PERSISTENT)
                                .forPath(path, u.value()));
                    } else {
                        ops.add(client.transactionOp().setData()
                                .withVersion(ZooKeeperLayout.zkVersion(u.key(), u.expectedVersion()))
                                .forPath(path, u.value()));
                    }
                }
                List<ZooKeeperChangeLog.Append> appends = log.appendOperations(updates);
                appends.forEach(a -> ops.add(a.op()));
                records = appends;
                size.check(updates, ops, operation + " of " + what);
                session.deadline().beforeRequest(operation, what);
                long retriesBefore = session.deadline().retries();
                try {
                    client.transaction().forOperations(ops);
                } finally {
                    resends += session.deadline().retries() - retriesBefore;
                }
                log.committed(updates);
                return;
            } catch (VersionConflictException | InvalidRequestException e) {
                throw e; // a conflict, or a request refused before it was sent: nothing written either way
            } catch (KeeperException e) {
                int failed = ZooKeeperLayout.failedOp(e);
                KeeperException.Code code = e.code();
                if (failed >= updates.size() && failed < updates.size() + records.size()
                        && code == KeeperException.Code.NODEEXISTS && attempt < MAX_ROLLOVERS) {
                    // the record's log generation has used its last name (ChangeLogNames): nothing was applied
                    ZooKeeperChangeLog.Append full = records.get(failed - updates.size());
                    try {
                        log.rollOver(full.container(), full.generation());
                    } catch (Exception rollOver) {
                        throw session.failure(operation, what, rollOver);
                    }
                    continue;
                }
                if (failed >= updates.size() && code == KeeperException.Code.NONODE && attempt == 0) {
                    log.forget(); // a log znode removed behind our back
                    continue;
                }
                MetadataUpdate u = failed < 0 || failed >= updates.size() ? null : updates.get(failed);
                if (u != null && u.expectedVersion().isAbsent() && code == KeeperException.Code.NONODE
                        && attempt == 0) {
                    knownContainers.remove(u.key().container()); // container znode removed behind our back
                    continue;
                }
                if (u != null && (code == KeeperException.Code.NODEEXISTS || code == KeeperException.Code.BADVERSION
                        || code == KeeperException.Code.NONODE)) {
                    // Curator re-sent the multi after a lost answer: the earlier send may be what conflicts now
                    throw conflict(updates, u, code, e, resends > 0);
                }
                throw session.failure(operation, what, e);
            } catch (Exception e) {
                throw session.failure(operation, what, e);
            }
        }
    }

    private static VersionConflictException conflict(List<MetadataUpdate> updates, MetadataUpdate u,
                                                     KeeperException.Code code, KeeperException e, boolean resent) {
        MetadataKey key = u.key();
        String why = code == KeeperException.Code.NODEEXISTS ? key + " already exists (expected ABSENT)"
                : code == KeeperException.Code.NONODE ? key + " does not exist (expected version "
                + u.expectedVersion() + ")"
                : key + " is no longer at version " + u.expectedVersion();
        String outcome = resent ? "the request was re-sent after a lost answer, and the earlier send may have"
                + " applied it" : "nothing written";
        return new VersionConflictException(updates.size() == 1 ? why + (resent ? " (" + outcome + ")" : "")
                : "atomic update of " + updates.size() + " keys aborted, " + outcome + ": " + why, e, resent);
    }

    private void ensureContainers(List<MetadataUpdate> updates, String operation, String what) throws Exception {
        for (MetadataUpdate u : updates) {
            String container = u.key().container();
            if (u.expectedVersion().isAbsent() && !knownContainers.contains(container)) {
                session.deadline().beforeRequest(operation, what);
                client.createContainers(layout.containerPath(container));
                knownContainers.add(container);
            }
        }
    }
}
