/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.hybris.testkit.TestEnvironment;

import java.util.UUID;

/** The Azurite server of the test environment, with fresh container names and a raw SDK client to inspect it. */
final class Azurite {
    final String endpoint;
    final String account;
    final String key;

    private Azurite(TestEnvironment env) {
        this.endpoint = env.azuriteEndpoint().toString();
        this.account = env.azuriteAccount();
        this.key = env.azuriteKey();
    }

    /** The running Azurite; skips (or in CI fails) the test when no test environment was started. */
    static Azurite require() {
        return new Azurite(TestEnvironment.require());
    }

    /** A container name no test used before. */
    static String freshContainer() {
        return "hybris-" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    /** A builder for the given cloud id over Azurite with the development account's shared key. */
    AzureBlobCloudStore.Builder builder(String cloudId, String container) {
        return AzureBlobCloudStore.builder(cloudId).endpoint(endpoint).account(account).key(key)
                .container(container);
    }

    /** A connection string for Azurite's blob service. */
    String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + account + ";AccountKey=" + key + ";BlobEndpoint="
                + endpoint + ";";
    }

    /** An SDK client straight on Azurite, for checks behind the store's back. */
    BlobServiceClient service() {
        return new BlobServiceClientBuilder().endpoint(endpoint)
                .credential(new StorageSharedKeyCredential(account, key))
                .httpClient(new JdkHttpClientBuilder().build())
                .buildClient();
    }
}
