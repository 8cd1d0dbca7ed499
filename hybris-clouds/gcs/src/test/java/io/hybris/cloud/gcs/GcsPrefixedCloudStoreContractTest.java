/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.CloudStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The full {@link CloudStoreContract} against fake-gcs-server with every test under a fresh object-name prefix
 * of one shared bucket, next to a bystander object outside the prefix that must stay invisible and untouched.
 */
class GcsPrefixedCloudStoreContractTest extends CloudStoreContract {
    private static final String BYSTANDER = "hybris/contract/bystander#1_abc";
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private static GcsEmulator emulator;
    private static String bucket;
    private static GcsCloudStore whole;

    @BeforeAll
    static void bucket() {
        emulator = GcsEmulator.require();
        bucket = GcsEmulator.freshBucket("prefixed");
        whole = emulator.store("gcs-whole", bucket).build();
        whole.put(BYSTANDER, new byte[] {7});
    }

    @AfterAll
    static void bystanderSurvived() {
        if (whole != null) {
            try {
                assertThat(whole.get(BYSTANDER, 1)).hasValueSatisfying(v -> assertThat(v).containsExactly(7));
            } finally {
                whole.close();
            }
        }
    }

    @Override
    protected CloudStore newStore() {
        return emulator.store("gcs-prefixed", bucket).prefix("tenant-" + PREFIXES.incrementAndGet()).build();
    }

    @Override
    protected void closeStore(CloudStore store) {
        try {
            for (CloudObject o : store.list("")) {
                store.delete(o.key());
            }
        } finally {
            store.close();
        }
    }
}
