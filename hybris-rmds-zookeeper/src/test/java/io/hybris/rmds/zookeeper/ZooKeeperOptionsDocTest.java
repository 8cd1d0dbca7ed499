/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/zookeeper.md} is made from {@link ZooKeeperMetadataStoreProvider#OPTIONS}, and is current. */
class ZooKeeperOptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("zookeeper.md", ZooKeeperMetadataStoreProvider.OPTIONS);
    }
}
