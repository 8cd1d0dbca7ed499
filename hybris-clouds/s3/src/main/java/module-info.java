/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The AWS S3 (and S3-compatible) cloud driver for Hybris ({@code hybris.cloud.<id>.type=s3}). */
@SuppressWarnings({"requires-automatic", "module"})
module io.hybris.cloud.s3 {
    requires transitive io.hybris.core;
    requires org.slf4j;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.http.apache5;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.retries.api;
    requires software.amazon.awssdk.services.s3;
    requires software.amazon.awssdk.utils;

    exports io.hybris.cloud.s3;

    provides io.hybris.spi.CloudStoreProvider with io.hybris.cloud.s3.S3CloudStoreProvider;
}
