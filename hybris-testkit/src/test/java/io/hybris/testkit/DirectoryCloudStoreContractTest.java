/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** Runs the {@link CloudStoreContract} against {@link DirectoryCloudStore}, in a fresh directory per test. */
class DirectoryCloudStoreContractTest extends CloudStoreContract {
    @TempDir
    Path root;

    @Override
    protected CloudStore newStore() {
        return new DirectoryCloudStore("disk1", root.resolve("cloud"));
    }
}
