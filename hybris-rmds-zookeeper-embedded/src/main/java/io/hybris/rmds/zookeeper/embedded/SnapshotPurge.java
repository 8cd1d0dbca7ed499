/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.apache.zookeeper.server.persistence.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Deletes a ZooKeeper data directory's snapshots older than the newest {@code n} valid ones, and the transaction logs
 * no kept snapshot needs: what ZooKeeper's {@code PurgeTxnLog} (its {@code autopurge}) does, without its printing of
 * each file to standard output, which would land in the output of a program that embeds the server (the CLI's JSON).
 */
final class SnapshotPurge {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final String SNAPSHOT = "snapshot";
    private static final String LOG_FILE = "log";

    private SnapshotPurge() {
    }

    /** Purges {@code txnLog}'s directories down to the newest {@code n} snapshots; how many files were deleted. */
    static int keepNewest(FileTxnSnapLog txnLog, int n) {
        List<File> snapshots = txnLog.findNValidSnapshots(n);
        if (snapshots.isEmpty()) {
            return 0;
        }
        long oldestKept = Util.getZxidFromName(snapshots.get(snapshots.size() - 1).getName(), SNAPSHOT);
        Set<File> needed = new HashSet<>(Arrays.asList(txnLog.getSnapshotLogs(oldestKept)));
        List<File> older = new ArrayList<>();
        older.addAll(olderThan(txnLog.getDataLogDir(), LOG_FILE, oldestKept, needed));
        older.addAll(olderThan(txnLog.getSnapDir(), SNAPSHOT, oldestKept, needed));
        int deleted = 0;
        for (File f : older) {
            if (f.delete()) {
                deleted++;
                LOG.debug("deleted {}", f);
            } else {
                LOG.warn("could not delete {}", f);
            }
        }
        return deleted;
    }

    private static List<File> olderThan(File dir, String prefix, long zxid, Set<File> needed) {
        File[] files = dir.listFiles(f -> f.getName().startsWith(prefix + ".") && !needed.contains(f)
                && Util.getZxidFromName(f.getName(), prefix) < zxid);
        return files == null ? List.of() : Arrays.asList(files);
    }
}
