/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
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
 * The options, their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/clouds-s3.md} is made
 * from it). Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class S3CloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "s3";

    static final Option<String> BUCKET = Option.string("bucket", null, "the bucket; 3-63 of `a-z 0-9 . -` on AWS"
            + " (upper case and `_` are let through for other servers)").required();
    static final Option<URI> ENDPOINT = Option.of("endpoint", S3CloudStoreProvider::uri, null, "`http(s)://host[:port]`"
            + " of an S3-compatible server; no path (put the bucket in `bucket`)").defaultText("AWS's");
    static final Option<String> REGION = Option.string("region", S3Settings.DEFAULT_REGION, "the bucket's region;"
            + " used for signing, and as the location of a bucket that `create-bucket` creates");
    static final Option<String> PREFIX = Option.string("prefix", null, "key prefix inside the bucket, e.g."
            + " `tenant-7` (a `/` is appended); `list` strips it again, so several clouds or applications can share"
            + " one bucket. Segments of `A-Z a-z 0-9 . _ - % #`, no `.`/`..`, no leading `/`");
    static final Option<String> ACCESS_KEY = Option.string("access-key", null, "static credentials, with"
            + " `secret-key`: both or neither. Neither: the AWS default credentials provider chain");
    static final Option<String> SECRET_KEY = Option.string("secret-key", null, "the secret of `access-key` (a"
            + " secret: `HYBRIS_CLOUD_<ID>_SECRET_KEY`)");
    static final Option<String> SESSION_TOKEN = Option.string("session-token", null, "with"
            + " `access-key`/`secret-key`, for temporary credentials");
    static final Option<Boolean> PATH_STYLE = Option.bool("path-style", null, "`endpoint/bucket/key` URLs instead"
            + " of `bucket.endpoint/key` (most S3-compatible servers need path style)")
            .defaultText("`true` with `endpoint`, else `false`");
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT
            .defaultValue(S3Settings.DEFAULT_CONNECT_TIMEOUT);
    static final Option<Duration> REQUEST_TIMEOUT = Option.duration("request-timeout",
            S3Settings.DEFAULT_REQUEST_TIMEOUT, "time limit of one attempt of one request, body transfer included"
                    + " (also the socket read timeout and the wait for a pooled connection). Allow for your largest"
                    + " value at your slowest bandwidth").positive();
    static final Option<Integer> RETRIES = StandardOptions.RETRIES.defaultValue(S3Settings.DEFAULT_RETRIES)
            .doc("SDK retries after a failed attempt (0-10), with the SDK's standard backoff");
    static final Option<Boolean> CREATE_BUCKET = StandardOptions.CREATE_BUCKET
            .doc("create the bucket at start-up if it is missing (see below)");
    static final Option<Integer> MAX_CONNECTIONS = Option.integer("max-connections",
            S3Settings.DEFAULT_MAX_CONNECTIONS, "HTTP connection pool size of this cloud").positive();
    static final Option<Path> TRUST_STORE = StandardOptions.TRUST_STORE;
    static final Option<String> TRUST_STORE_PASSWORD = StandardOptions.TRUST_STORE_PASSWORD
            .doc("its password (a secret: `HYBRIS_CLOUD_<ID>_TRUST_STORE_PASSWORD`)");

    /** Every option of this provider, in the order of its documentation. */
    public static final OptionSet OPTIONS = OptionSet.of(BUCKET, ENDPOINT, REGION, PREFIX, ACCESS_KEY, SECRET_KEY,
            SESSION_TOKEN, PATH_STYLE, CONNECT_TIMEOUT, REQUEST_TIMEOUT, RETRIES, CREATE_BUCKET, MAX_CONNECTIONS,
            TRUST_STORE, TRUST_STORE_PASSWORD);

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public S3CloudStoreProvider() {
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
        S3CloudStore.Builder b = S3CloudStore.builder(cloudId);
        ENDPOINT.find(o).ifPresent(b::endpoint);
        REGION.find(o).ifPresent(b::region);
        b.bucket(BUCKET.get(o));
        PREFIX.find(o).ifPresent(b::prefix);
        b.credentials(ACCESS_KEY.find(o).orElse(null), SECRET_KEY.find(o).orElse(null));
        SESSION_TOKEN.find(o).ifPresent(b::sessionToken);
        PATH_STYLE.find(o).ifPresent(b::pathStyle);
        CONNECT_TIMEOUT.find(o).ifPresent(b::connectTimeout);
        REQUEST_TIMEOUT.find(o).ifPresent(b::requestTimeout);
        RETRIES.find(o).ifPresent(b::retries);
        b.createBucket(CREATE_BUCKET.get(o));
        MAX_CONNECTIONS.find(o).ifPresent(b::maxConnections);
        TRUST_STORE.find(o).ifPresent(b::trustStore);
        TRUST_STORE_PASSWORD.find(o).ifPresent(b::trustStorePassword);
        return b.build();
    }

    private static URI uri(String key, String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new HybrisConfigurationException(key + "=" + value + " is not a URL (" + e.getReason()
                    + "); use e.g. https://s3.example.com or http://127.0.0.1:9000", e);
        }
    }
}
