/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.storage.blob.BlobServiceClient;
import io.hybris.spi.CloudStore;
import io.hybris.testkit.CloudStoreContract;
import org.junit.jupiter.api.BeforeAll;

import java.util.Optional;
import java.util.function.Supplier;

/** The {@link CloudStoreContract} against Azurite: each test on a fresh container, deleted afterwards. */
class AzureBlobCloudStoreContractTest extends CloudStoreContract {
    private static final String WRONG_KEY = "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXktd3Jvbmcta2V5LXdyb25nLWtleQ==";

    private static Azurite azurite;
    private static BlobServiceClient service;

    @BeforeAll
    static void connect() {
        azurite = Azurite.require();
        service = azurite.service();
    }

    @Override
    protected CloudStore newStore() {
        return azurite.builder("azure", Azurite.freshContainer()).createBucket(true).build();
    }

    @Override
    protected void closeStore(CloudStore store) {
        try {
            service.getBlobContainerClient(((AzureBlobCloudStore) store).container()).deleteIfExists();
        } finally {
            store.close();
        }
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeWithWrongCredentials() {
        String container = ((AzureBlobCloudStore) store()).container();
        return Optional.of(() -> AzureBlobCloudStore.builder("azure").endpoint(azurite.endpoint)
                .account(azurite.account).key(WRONG_KEY).container(container).build());
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeOverMissingBucket() {
        return Optional.of(() -> azurite.builder("azure", missingBucketName()).build());
    }
}
