/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/clouds-azure.md} is made from {@link AzureBlobCloudStoreProvider#OPTIONS}, and is current. */
class AzureBlobOptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("clouds-azure.md", AzureBlobCloudStoreProvider.OPTIONS);
    }
}
