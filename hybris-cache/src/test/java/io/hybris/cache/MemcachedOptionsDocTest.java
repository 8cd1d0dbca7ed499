/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.testkit.OptionDocs;
import org.junit.jupiter.api.Test;

/** The options table in {@code docs/cache.md} is made from {@link MemcachedCacheProvider#OPTIONS}, and is current. */
class MemcachedOptionsDocTest {
    @Test
    void theDocsTableIsTheProvidersOptions() {
        OptionDocs.assertCurrent("cache.md", MemcachedCacheProvider.OPTIONS);
    }
}
