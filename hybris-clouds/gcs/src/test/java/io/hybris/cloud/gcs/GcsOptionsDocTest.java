/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/clouds-gcs.md} is made from {@link GcsCloudStoreProvider#OPTIONS}, and is current. */
class GcsOptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("clouds-gcs.md", GcsCloudStoreProvider.OPTIONS);
    }
}
