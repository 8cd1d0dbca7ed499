/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;

import java.util.List;

/**
 * How Hybris keys map onto znodes (see {@link ZooKeeperMetadataStore}'s layout): paths, versions and the results
 * of a {@code multi}. Immutable and thread-safe.
 */
final class ZooKeeperLayout {
    private static final byte[] EMPTY = new byte[0];

    private final String root;

    ZooKeeperLayout(String root) {
        this.root = root;
    }

    /** The root znode. */
    String root() {
        return root;
    }

    /** The znode of a container. */
    String containerPath(String container) {
        return root + "/" + container;
    }

    /** The znode of a key. */
    String path(MetadataKey key) {
        return containerPath(key.container()) + "/" + KeyEncoding.encode(key.key());
    }

    /** A znode's data and version. */
    static VersionedValue versioned(byte[] data, Stat stat) {
        return new VersionedValue(data(data), new MetadataVersion(stat.getVersion()));
    }

    /** A znode's data, never null. */
    static byte[] data(byte[] data) {
        return data == null ? EMPTY : data;
    }

    /** The znode version to expect; a value no znode can have is a conflict, never {@code -1} ("any"). */
    static int zkVersion(MetadataKey key, MetadataVersion v) throws VersionConflictException {
        if (v.value() < 0 || v.value() > Integer.MAX_VALUE) {
            throw new VersionConflictException(key + ": version " + v + " is not a ZooKeeper znode version");
        }
        return (int) v.value();
    }

    /** Index of the operation that failed a multi, or -1. */
    static int failedOp(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results == null) {
            return -1;
        }
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult err
                    && err.getErr() != KeeperException.Code.OK.intValue()
                    && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                return i;
            }
        }
        return -1;
    }
}
