/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Hybris cloud driver for Amazon S3 and S3-compatible servers (MinIO, Ceph RGW, ...), on the AWS SDK for
 * Java v2.
 *
 * <p>{@link io.hybris.cloud.s3.S3CloudStore} keeps each Hybris object as one S3 object in a bucket (optionally
 * under a key prefix), reads with a ranged GET so no more than the allowed bytes are downloaded, maps S3's errors to
 * transient or permanent ones, and aborts a request when its caller is interrupted. It is selected with
 * {@code hybris.cloud.<id>.type=s3} through {@link io.hybris.cloud.s3.S3CloudStoreProvider}, registered for
 * {@link java.util.ServiceLoader} in {@code META-INF/services/io.hybris.spi.CloudStoreProvider}, or built directly
 * with {@link io.hybris.cloud.s3.S3CloudStore#builder(String)}. No SDK type appears in its public API.
 */
package io.hybris.cloud.s3;
