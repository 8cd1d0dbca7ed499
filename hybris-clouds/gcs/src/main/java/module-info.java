/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The Google Cloud Storage cloud driver for Hybris ({@code hybris.cloud.<id>.type=gcs}). */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.hybris.cloud.gcs {
    requires transitive io.hybris.core;
    requires org.slf4j;
    requires com.google.api.client;
    requires com.google.api.client.http.apache.v2;
    requires org.apache.httpcomponents.httpclient;
    requires org.apache.httpcomponents.httpcore;
    requires transitive com.google.auth;
    requires com.google.auth.oauth2;
    requires gax;
    requires google.cloud.core;
    requires google.cloud.core.http;
    requires google.cloud.storage;

    exports io.hybris.cloud.gcs;

    provides io.hybris.spi.CloudStoreProvider with io.hybris.cloud.gcs.GcsCloudStoreProvider;
}
