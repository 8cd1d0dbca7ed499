package io.hybris.cloud.gcs;

import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.net.URI;
import java.util.Set;

/**
 * {@code hybris.cloud.<id>.type=gcs}: a {@link GcsCloudStore} on a Google Cloud Storage bucket.
 *
 * <pre>{@code
 * hybris.cloud.gcs1.type=gcs
 * hybris.cloud.gcs1.bucket=my-hybris-bucket
 * hybris.cloud.gcs1.credentials-file=/etc/hybris/gcs-key.json
 * # or from the environment: HYBRIS_CLOUD_GCS1_CREDENTIALS_FILE=/run/secrets/gcs-key.json
 * }</pre>
 * Options: {@code bucket} (required), {@code endpoint}, {@code project}, {@code prefix},
 * {@code credentials-file}, {@code anonymous}, {@code connect-timeout}, {@code request-timeout},
 * {@code retries}, {@code create-bucket}, {@code trust-store}, {@code trust-store-password}; their meaning and
 * defaults are in {@link GcsCloudStore.Builder} and {@code docs/clouds-gcs.md}. Found by
 * {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class GcsCloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "gcs";

    private static final Set<String> OPTIONS = Set.of("endpoint", "project", "bucket", "prefix",
            "credentials-file", "anonymous", "connect-timeout", "request-timeout", "retries", "create-bucket",
            "trust-store", "trust-store-password");

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public GcsCloudStoreProvider() {
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
        GcsCloudStore.Builder b = GcsCloudStore.builder(cloudId).keyNames(o::qualified);
        b.bucket(o.require("bucket"));
        o.get("endpoint").ifPresent(v -> b.endpoint(endpoint(o, v)));
        o.get("project").ifPresent(b::project);
        o.get("prefix").ifPresent(b::prefix);
        o.path("credentials-file").ifPresent(b::credentialsFile);
        b.anonymous(o.bool("anonymous", false));
        b.connectTimeout(o.duration("connect-timeout", GcsCloudStore.DEFAULT_CONNECT_TIMEOUT));
        b.requestTimeout(o.duration("request-timeout", GcsCloudStore.DEFAULT_REQUEST_TIMEOUT));
        b.retries(o.integer("retries", GcsCloudStore.DEFAULT_RETRIES));
        b.createBucket(o.bool("create-bucket", false));
        o.path("trust-store").ifPresent(b::trustStore);
        o.get("trust-store-password").ifPresent(b::trustStorePassword);
        return b.build();
    }

    private static URI endpoint(ProviderOptions o, String value) {
        try {
            return new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new io.hybris.HybrisConfigurationException(o.qualified("endpoint") + "=" + value
                    + " is not a valid URL (e.g. http://127.0.0.1:4443): " + e.getMessage(), e);
        }
    }
}
