package io.hybris.cloud.azure;

import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

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
 * Options: {@code endpoint}, {@code container} (required), {@code prefix}, credentials as exactly one of
 * {@code account} + {@code key}, {@code sas-token} or {@code connection-string}, {@code connect-timeout},
 * {@code request-timeout}, {@code retries}, {@code create-bucket}, {@code trust-store},
 * {@code trust-store-password}; their meaning and defaults are in {@link AzureBlobCloudStore.Builder}. Found by
 * {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class AzureBlobCloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "azure";

    private static final Set<String> OPTIONS = Set.of("endpoint", "container", "prefix", "account", "key",
            "sas-token", "connection-string", "connect-timeout", "request-timeout", "retries", "create-bucket",
            "trust-store", "trust-store-password");

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public AzureBlobCloudStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS;
    }

    @Override
    public CloudStore create(String cloudId, ProviderOptions o) {
        AzureBlobCloudStore.Builder b = AzureBlobCloudStore.builder(cloudId);
        o.get("endpoint").ifPresent(b::endpoint);
        o.get("container").ifPresent(b::container);
        o.get("prefix").ifPresent(b::prefix);
        o.get("account").ifPresent(b::account);
        o.get("key").ifPresent(b::key);
        o.get("sas-token").ifPresent(b::sasToken);
        o.get("connection-string").ifPresent(b::connectionString);
        o.get("connect-timeout").ifPresent(v -> b.connectTimeout(o.duration("connect-timeout", null)));
        o.get("request-timeout").ifPresent(v -> b.requestTimeout(o.duration("request-timeout", null)));
        o.get("retries").ifPresent(v -> b.retries(o.integer("retries", 0)));
        b.createBucket(o.bool("create-bucket", false));
        o.path("trust-store").ifPresent(b::trustStore);
        o.get("trust-store-password").ifPresent(b::trustStorePassword);
        return b.build();
    }
}
