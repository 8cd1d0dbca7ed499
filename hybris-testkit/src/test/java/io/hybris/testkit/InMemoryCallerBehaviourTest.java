/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;

class InMemoryCallerBehaviourTest extends CallerBehaviourContract {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }
}
