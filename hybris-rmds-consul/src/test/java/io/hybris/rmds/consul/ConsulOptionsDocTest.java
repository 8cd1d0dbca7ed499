/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/consul.md} is made from {@link ConsulMetadataStoreProvider#OPTIONS}, and is current. */
class ConsulOptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("consul.md", ConsulMetadataStoreProvider.OPTIONS);
    }
}
