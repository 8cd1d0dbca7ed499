/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/clouds-s3.md} is made from {@link S3CloudStoreProvider#OPTIONS}, and is current. */
class S3OptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("clouds-s3.md", S3CloudStoreProvider.OPTIONS);
    }
}
