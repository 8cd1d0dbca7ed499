/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import org.apache.curator.test.TestingServer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stores a test shares with its child JVMs: a ZooKeeper server in this JVM (curator-test) and three directory
 * clouds {@link KilledUploadTest#CLOUDS} under {@code <dir>/clouds}, which a child opens by connect string and path.
 */
final class SharedStores implements AutoCloseable {
    final TestingServer zookeeper;
    final ZooKeeperMetadataStore metadata;
    final Path cloudsDir;
    final List<DirectoryCloudStore> clouds = new ArrayList<>();

    SharedStores(String root, Path dir) throws Exception {
        zookeeper = new TestingServer(true);
        metadata = ZooKeeperMetadataStore.builder().connect(zookeeper.getConnectString()).root(root).build();
        cloudsDir = dir.resolve("clouds");
        for (String id : KilledUploadTest.CLOUDS) {
            clouds.add(new DirectoryCloudStore(id, cloudsDir.resolve(id)));
        }
    }

    /** A client configuration over these stores, f=1. */
    HybrisConfig.Builder client(String clientId) {
        HybrisConfig.Builder b = Hybris.builder().f(1).clientId(clientId).metadataStore(metadata);
        clouds.forEach(b::cloud);
        return b;
    }

    String connectString() {
        return zookeeper.getConnectString();
    }

    @Override
    public void close() throws Exception {
        metadata.close();
        zookeeper.close();
    }
}
