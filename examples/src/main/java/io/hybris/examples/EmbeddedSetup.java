/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;

import java.nio.file.Path;
import java.util.Map;

/** The embedded default the runnable examples share: an in-process ZooKeeper and three directory "clouds", f=1. */
final class EmbeddedSetup {
    private EmbeddedSetup() {
    }

    /** A builder for the embedded default with its data under {@code dir}. */
    static HybrisConfig.Builder under(Path dir) {
        return HybrisConfig.builder()
                .f(1)
                .metadataStore("embedded-zookeeper", Map.of("data-dir", dir.resolve("zookeeper").toString()))
                .cloud(new DirectoryCloudStore("disk1", dir.resolve("cloud-disk1")))
                .cloud(new DirectoryCloudStore("disk2", dir.resolve("cloud-disk2")))
                .cloud(new DirectoryCloudStore("disk3", dir.resolve("cloud-disk3")));
    }
}
