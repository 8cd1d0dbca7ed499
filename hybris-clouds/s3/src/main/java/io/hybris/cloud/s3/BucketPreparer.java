/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.InterruptibleCalls;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;

/**
 * The start-up check of a store's bucket: it must exist, or is created when {@code create-bucket=true}. A missing
 * bucket or denied access fails the start-up with a {@link PermanentCloudException}; a server that cannot be
 * reached is only logged, because Hybris tolerates clouds that are down and the store works once it is back.
 */
final class BucketPreparer {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BucketPreparer.class);

    private final S3Settings settings;
    private final S3Client s3;
    private final S3Errors errors;
    private final InterruptibleCalls calls;

    BucketPreparer(S3Settings settings, S3Client s3, S3Errors errors, InterruptibleCalls calls) {
        this.settings = settings;
        this.s3 = s3;
        this.errors = errors;
        this.calls = calls;
    }

    /** Checks (and maybe creates) the bucket. */
    void prepare() {
        String what = "start-up check of bucket '" + settings.bucket() + "'";
        try {
            InFlight.call(calls, what, inFlight -> {
                try {
                    s3.headBucket(b -> b.bucket(settings.bucket()));
                    return null;
                } catch (SdkException e) {
                    if (S3Errors.status(e) != 404) {
                        throw errors.map(what, e, inFlight);
                    }
                }
                if (!settings.createBucket()) {
                    throw errors.missingBucket(what, null);
                }
                create(inFlight);
                return null;
            });
        } catch (TransientCloudException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw e;
            }
            LOG.warn("cloud '{}': {}; starting anyway, requests will fail until the server answers",
                    settings.cloudId(), e.getMessage());
        }
    }

    private void create(InFlight inFlight) {
        String what = "creation of bucket '" + settings.bucket() + "' (" + settings.key("create-bucket") + "=true)";
        CreateBucketRequest.Builder request = CreateBucketRequest.builder().bucket(settings.bucket());
        if (!S3Settings.DEFAULT_REGION.equals(settings.region())) {
            request.createBucketConfiguration(c -> c.locationConstraint(settings.region()));
        }
        try {
            s3.createBucket(request.build());
            LOG.info("cloud '{}': created bucket '{}'", settings.cloudId(), settings.bucket());
        } catch (SdkException e) {
            String code = S3Errors.code(e);
            if ("BucketAlreadyOwnedByYou".equals(code)) {
                return; // created concurrently, e.g. by another Hybris client starting at the same time
            }
            CloudStoreException mapped = errors.map(what, e, inFlight);
            if ("BucketAlreadyExists".equals(code)) {
                throw new PermanentCloudException(settings.cloudId(), what + " failed: the name belongs to"
                        + " another account (" + S3Errors.describe(e) + "); choose another "
                        + settings.key("bucket"), e);
            }
            throw mapped;
        }
    }
}
