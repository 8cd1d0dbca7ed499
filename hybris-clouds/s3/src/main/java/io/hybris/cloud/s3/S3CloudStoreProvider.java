package io.hybris.cloud.s3;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * {@code hybris.cloud.<id>.type=s3}: an {@link S3CloudStore} on Amazon S3 or an S3-compatible server.
 *
 * <pre>{@code
 * hybris.cloud.aws.type=s3
 * hybris.cloud.aws.bucket=my-hybris-bucket
 * hybris.cloud.aws.region=eu-central-1
 * # credentials from the AWS default chain, or HYBRIS_CLOUD_AWS_ACCESS_KEY / HYBRIS_CLOUD_AWS_SECRET_KEY
 *
 * hybris.cloud.minio.type=s3
 * hybris.cloud.minio.endpoint=http://127.0.0.1:9000
 * hybris.cloud.minio.bucket=hybris
 * hybris.cloud.minio.create-bucket=true
 * }</pre>
 * Options: {@code bucket} (required), {@code endpoint}, {@code region}, {@code prefix}, {@code access-key},
 * {@code secret-key}, {@code session-token}, {@code path-style}, {@code connect-timeout},
 * {@code request-timeout}, {@code retries}, {@code create-bucket}, {@code max-connections}, {@code trust-store},
 * {@code trust-store-password}; meanings and defaults are on {@link S3CloudStore.Builder}. Found by
 * {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class S3CloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "s3";

    private static final Set<String> OPTIONS = Set.of("endpoint", "region", "bucket", "prefix", "access-key",
            "secret-key", "session-token", "path-style", "connect-timeout", "request-timeout", "retries",
            "create-bucket", "max-connections", "trust-store", "trust-store-password");

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public S3CloudStoreProvider() {
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
        S3CloudStore.Builder b = S3CloudStore.builder(cloudId);
        o.get("endpoint").ifPresent(v -> b.endpoint(uri(o, v)));
        o.get("region").ifPresent(b::region);
        b.bucket(o.require("bucket"));
        o.get("prefix").ifPresent(b::prefix);
        b.credentials(o.get("access-key").orElse(null), o.get("secret-key").orElse(null));
        o.get("session-token").ifPresent(b::sessionToken);
        o.get("path-style").ifPresent(v -> b.pathStyle(o.bool("path-style", false)));
        o.get("connect-timeout").ifPresent(v -> b.connectTimeout(o.duration("connect-timeout", null)));
        o.get("request-timeout").ifPresent(v -> b.requestTimeout(o.duration("request-timeout", null)));
        o.get("retries").ifPresent(v -> b.retries(o.integer("retries", 0)));
        b.createBucket(o.bool("create-bucket", false));
        o.get("max-connections").ifPresent(v -> b.maxConnections(o.integer("max-connections", 0)));
        o.path("trust-store").ifPresent(b::trustStore);
        o.get("trust-store-password").ifPresent(b::trustStorePassword);
        return b.build();
    }

    private static URI uri(ProviderOptions o, String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new HybrisConfigurationException(o.qualified("endpoint") + "=" + value + " is not a URL ("
                    + e.getReason() + "); use e.g. https://s3.example.com or http://127.0.0.1:9000", e);
        }
    }
}
