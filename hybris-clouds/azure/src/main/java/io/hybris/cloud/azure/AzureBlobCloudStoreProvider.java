/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * {@code hybris.cloud.<id>.type=azure}: an {@link AzureBlobCloudStore} on an Azure Blob Storage container.
 *
 * <pre>{@code
 * hybris.cloud.azure.type=azure
 * hybris.cloud.azure.account=mystorageaccount
 * hybris.cloud.azure.container=hybris
 * # the key from the environment: HYBRIS_CLOUD_AZURE_KEY=<base64 account key>
 * }</pre>
 * The options, their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/clouds-azure.md} is
 * made from it). Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class AzureBlobCloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "azure";

    static final Option<String> CONTAINER = Option.string("container", null, "the blob container: 3-63 lower-case"
            + " letters, digits and single hyphens, starting and ending with a letter or digit (Azure's rules, checked"
            + " at start-up)").required();
    static final Option<String> ENDPOINT = Option.string("endpoint", null, "the blob service URL, `http` or"
            + " `https`, no query; a trailing `/` is dropped. With an explicit port its path must be the account"
            + " (path-style, as Azurite); without a port it must have no path")
            .defaultText("`https://<account>.blob.core.windows.net`");
    static final Option<String> PREFIX = Option.string("prefix", null, "blob-name prefix inside the container; `/`"
            + " is appended if missing; segments of `[A-Za-z0-9._%#_-]`, no `.`/`..` segment, at most 256"
            + " characters. It is stripped again from `list` results");
    static final Option<String> ACCOUNT = Option.string("account", null, "storage account name (3-24 lower-case"
            + " letters and digits): with `key`, or to derive the endpoint");
    static final Option<String> KEY = Option.string("key", null, "the account's shared key (a secret)");
    static final Option<String> SAS_TOKEN = Option.string("sas-token", null, "a shared access signature (a secret)");
    static final Option<String> CONNECTION_STRING = Option.string("connection-string", null,
            "a storage connection string (a secret)");
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT
            .defaultValue(AzureBlobSettings.DEFAULT_CONNECT_TIMEOUT).doc("TCP/TLS connect timeout");
    static final Option<Duration> REQUEST_TIMEOUT = Option.duration("request-timeout",
            AzureBlobSettings.DEFAULT_REQUEST_TIMEOUT, "one attempt: the time until the response starts (the whole"
                    + " upload of a `put` included), and the longest pause while a body is received; also the SDK's"
                    + " per-try timeout (rounded up to whole seconds)").positive();
    static final Option<Integer> RETRIES = StandardOptions.RETRIES.defaultValue(AzureBlobSettings.DEFAULT_RETRIES)
            .doc("SDK retries of one request, 0-10 (`maxTries = retries + 1`), exponential back-off from 200 ms,"
                    + " at most 2 s apart; see below");
    static final Option<Boolean> CREATE_BUCKET = StandardOptions.CREATE_BUCKET.doc("create the container at"
            + " start-up if missing; with `false` a missing container is an error. (The name is the same for every"
            + " driver; `create-container` is rejected as an unknown option)");
    static final Option<Path> TRUST_STORE = StandardOptions.TRUST_STORE.doc("PKCS#12 or JKS trust store for an"
            + " `https` endpoint with a private CA");
    static final Option<String> TRUST_STORE_PASSWORD = StandardOptions.TRUST_STORE_PASSWORD
            .doc("its password (needs `trust-store`)");

    /** Every option of this provider, in the order of its documentation. */
    public static final OptionSet OPTIONS = OptionSet.of(CONTAINER, ENDPOINT, PREFIX, ACCOUNT, KEY, SAS_TOKEN,
            CONNECTION_STRING, CONNECT_TIMEOUT, REQUEST_TIMEOUT, RETRIES, CREATE_BUCKET, TRUST_STORE,
            TRUST_STORE_PASSWORD);

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public AzureBlobCloudStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS.names();
    }

    @Override
    public CloudStore create(String cloudId, ProviderOptions o) {
        AzureBlobCloudStore.Builder b = AzureBlobCloudStore.builder(cloudId);
        ENDPOINT.find(o).ifPresent(b::endpoint);
        CONTAINER.find(o).ifPresent(b::container);
        PREFIX.find(o).ifPresent(b::prefix);
        ACCOUNT.find(o).ifPresent(b::account);
        KEY.find(o).ifPresent(b::key);
        SAS_TOKEN.find(o).ifPresent(b::sasToken);
        CONNECTION_STRING.find(o).ifPresent(b::connectionString);
        CONNECT_TIMEOUT.find(o).ifPresent(b::connectTimeout);
        REQUEST_TIMEOUT.find(o).ifPresent(b::requestTimeout);
        RETRIES.find(o).ifPresent(b::retries);
        b.createBucket(CREATE_BUCKET.get(o));
        TRUST_STORE.find(o).ifPresent(b::trustStore);
        TRUST_STORE_PASSWORD.find(o).ifPresent(b::trustStorePassword);
        return b.build();
    }
}
