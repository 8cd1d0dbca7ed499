/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.CloudStore;
import io.hybris.testkit.CloudStoreContract;
import org.junit.jupiter.api.AfterAll;

import java.util.Optional;
import java.util.function.Supplier;

/** The full {@link CloudStoreContract} against MinIO, each test in a fresh bucket the store creates. */
class S3CloudStoreContractTest extends CloudStoreContract {
    private static Minio minio;
    private final String missingBucket = Minio.freshBucket() + "-missing";
    private String bucket;

    @Override
    protected CloudStore newStore() {
        if (minio == null) {
            minio = Minio.require();
        }
        bucket = Minio.freshBucket();
        return minio.store("minio", bucket).createBucket(true).build();
    }

    @Override
    protected void closeStore(CloudStore store) {
        store.close();
        minio.deleteBucket(bucket);
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeWithWrongCredentials() {
        return Optional.of(() -> minio.store("minio", bucket).credentials(minio.accessKey(), "not-the-secret-key")
                .build());
    }

    @Override
    protected Optional<Supplier<CloudStore>> storeOverMissingBucket() {
        return Optional.of(() -> minio.store("minio", missingBucket).build());
    }

    @Override
    protected String missingBucketName() {
        return missingBucket;
    }

    @AfterAll
    static void closeMinio() {
        if (minio != null) {
            minio.close();
            minio = null;
        }
    }
}
