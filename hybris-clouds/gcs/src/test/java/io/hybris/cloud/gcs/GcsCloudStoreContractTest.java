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

import java.util.Optional;
import java.util.function.Supplier;

/** The full {@link CloudStoreContract} against fake-gcs-server, each test in a fresh bucket. */
class GcsCloudStoreContractTest extends CloudStoreContract {
    private static GcsEmulator emulator;
    private static FakeGcsServer authServer;

    @BeforeAll
    static void servers() throws Exception {
        emulator = GcsEmulator.require();
        authServer = FakeGcsServer.start();
    }

    @AfterAll
    static void stopServers() {
        if (authServer != null) {
            authServer.close();
        }
    }

    @Override
    protected CloudStore newStore() {
        return emulator.store("gcs-contract", GcsEmulator.freshBucket("contract")).build();
    }

    @Override
    protected void closeStore(CloudStore store) {
        // free the emulator's memory (the large-object test leaves 64 MiB behind otherwise)
        try {
            for (CloudObject o : store.list("")) {
                store.delete(o.key());
            }
        } finally {
            store.close();
        }
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeWithWrongCredentials() {
        // fake-gcs-server accepts any credentials; FakeGcsServer rejects this key at its token endpoint
        return Optional.of(() -> GcsCloudStore.builder("gcs-wrong").endpoint(authServer.endpoint())
                .credentialsFile(authServer.rejectedServiceAccountKey()).project("p").bucket("some-bucket")
                .build());
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeOverMissingBucket() {
        return Optional.of(() -> emulator.store("gcs-missing", missingBucketName()).createBucket(false).build());
    }
}
