/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
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
 * The options, their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/clouds-gcs.md} is made
 * from it). Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class GcsCloudStoreProvider implements CloudStoreProvider {
    /** The {@code hybris.cloud.<id>.type} value of this provider. */
    public static final String TYPE = "gcs";

    static final Option<String> BUCKET = Option.string("bucket", null, "the bucket: 3-222 of `a-z 0-9 - _ .`,"
            + " starting and ending with a letter or digit").required();
    static final Option<URI> ENDPOINT = Option.of("endpoint", GcsCloudStoreProvider::endpoint, null, "the JSON API"
            + " root, `http(s)://host[:port]`: an emulator or a private endpoint")
            .defaultText("Google's (`https://storage.googleapis.com`)");
    static final Option<String> PROJECT = Option.string("project", null, "the project id; only used to create the"
            + " bucket. With `anonymous=true` and no project, a placeholder is sent (so the SDK does not probe the"
            + " metadata server)").defaultText("detected from the credentials");
    static final Option<String> PREFIX = Option.string("prefix", null, "put before every object name, e.g. `prod/`"
            + " (a trailing `/` is added if missing), so several Hybris deployments can share a bucket; `list` strips"
            + " it again. Segments of `A-Z a-z 0-9 . _ - % #`, at most 256 characters");
    static final Option<Path> CREDENTIALS_FILE = Option.path("credentials-file", "a Google credentials JSON file"
            + " (service account key, or any ADC-format file); a secret's path:"
            + " `HYBRIS_CLOUD_<ID>_CREDENTIALS_FILE`").defaultText("Application Default Credentials");
    static final Option<Boolean> ANONYMOUS = Option.bool("anonymous", false, "send no credentials (emulators,"
            + " public buckets); contradicts `credentials-file`");
    /** The SDK takes timeouts as int milliseconds. */
    private static final Option.Check<Duration> BELOW_24_DAYS = (key, d) -> {
        if (d.toMillis() > Integer.MAX_VALUE) {
            throw new HybrisConfigurationException(key + "=" + d + " must be below 24 days, e.g. 5s");
        }
    };
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT
            .defaultValue(GcsCloudStore.DEFAULT_CONNECT_TIMEOUT).doc("TCP (and TLS) connect timeout of one request")
            .check(BELOW_24_DAYS);
    static final Option<Duration> REQUEST_TIMEOUT = Option.duration("request-timeout",
            GcsCloudStore.DEFAULT_REQUEST_TIMEOUT, "per attempt: how long a request may wait for the next bytes of"
                    + " the answer (the socket read timeout; a large download that keeps streaming is not cut off)")
            .positive().check(BELOW_24_DAYS);
    static final Option<Integer> RETRIES = StandardOptions.RETRIES.defaultValue(GcsCloudStore.DEFAULT_RETRIES)
            .doc("SDK retries after a failed attempt, 0 to 10 (see below)");
    static final Option<Boolean> CREATE_BUCKET = StandardOptions.CREATE_BUCKET.doc("create the bucket at start-up"
            + " if it is missing (in `project`, default location and storage class)");
    static final Option<Path> TRUST_STORE = StandardOptions.TRUST_STORE.doc("PKCS#12 or JKS file with the CA"
            + " certificate(s) of an `https` endpoint");
    static final Option<String> TRUST_STORE_PASSWORD = StandardOptions.TRUST_STORE_PASSWORD
            .doc("its password; `HYBRIS_CLOUD_<ID>_TRUST_STORE_PASSWORD`");

    /** Every option of this provider, in the order of its documentation. */
    public static final OptionSet OPTIONS = OptionSet.of(BUCKET, ENDPOINT, PROJECT, PREFIX, CREDENTIALS_FILE,
            ANONYMOUS, CONNECT_TIMEOUT, REQUEST_TIMEOUT, RETRIES, CREATE_BUCKET, TRUST_STORE, TRUST_STORE_PASSWORD);

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public GcsCloudStoreProvider() {
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
        GcsCloudStore.Builder b = GcsCloudStore.builder(cloudId).keyNames(o::qualified);
        b.bucket(BUCKET.get(o));
        ENDPOINT.find(o).ifPresent(b::endpoint);
        PROJECT.find(o).ifPresent(b::project);
        PREFIX.find(o).ifPresent(b::prefix);
        CREDENTIALS_FILE.find(o).ifPresent(b::credentialsFile);
        b.anonymous(ANONYMOUS.get(o));
        b.connectTimeout(CONNECT_TIMEOUT.get(o));
        b.requestTimeout(REQUEST_TIMEOUT.get(o));
        b.retries(RETRIES.get(o));
        b.createBucket(CREATE_BUCKET.get(o));
        TRUST_STORE.find(o).ifPresent(b::trustStore);
        TRUST_STORE_PASSWORD.find(o).ifPresent(b::trustStorePassword);
        return b.build();
    }

    private static URI endpoint(String key, String value) {
        try {
            return new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new HybrisConfigurationException(key + "=" + value
                    + " is not a valid URL (e.g. http://127.0.0.1:4443): " + e.getMessage(), e);
        }
    }
}
