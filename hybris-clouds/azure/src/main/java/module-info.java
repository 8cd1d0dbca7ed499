/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The Azure Blob Storage cloud driver for Hybris ({@code hybris.cloud.<id>.type=azure}). */
module io.hybris.cloud.azure {
    requires transitive io.hybris.core;
    requires org.slf4j;
    requires java.net.http;
    requires com.azure.core;
    requires com.azure.core.http.jdk.httpclient;
    requires com.azure.storage.blob;
    requires com.azure.storage.common;

    exports io.hybris.cloud.azure;

    provides io.hybris.spi.CloudStoreProvider with io.hybris.cloud.azure.AzureBlobCloudStoreProvider;
}
