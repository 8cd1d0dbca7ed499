/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.spi.ObjectKeyPrefix;
import com.google.api.gax.paging.Page;
import com.google.auth.Credentials;
import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.BoundedReads;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.InterruptibleCalls;
import org.apache.http.impl.client.CloseableHttpClient;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A {@link CloudStore} on a Google Cloud Storage bucket, through the {@code google-cloud-storage} SDK's HTTP/JSON
 * API on Apache HttpClient (so that its requests can be aborted); also talks to emulators such as fake-gcs-server
 * (custom endpoint, anonymous access).
 *
 * <p>Object {@code k} is stored as {@code <prefix>k} in the bucket; {@link #list} strips the prefix again.
 * {@link #get} asks for the byte range {@code 0..maxBytes}, so at most {@code maxBytes + 1} bytes are
 * downloaded before an {@link io.hybris.spi.OversizedObjectException}. The bucket is checked (or created, with
 * {@link Builder#createBucket(boolean)}) when the store is built. A call runs on a worker thread while its caller
 * waits, or on the caller's thread when it has an {@link io.hybris.spi.support.AbortSignal} bound (Hybris's I/O
 * threads do); either way interrupting the caller, or firing the signal, shuts the call's connection down and ends
 * it at once (see {@link #get}). Errors are mapped as described in {@code docs/clouds-gcs.md}. Thread-safe;
 * {@link #close()} ends calls in flight and releases the clients and threads.
 *
 * <pre>{@code
 * CloudStore gcs = GcsCloudStore.builder("gcs1")
 *         .bucket("my-hybris-bucket")
 *         .credentialsFile(Path.of("/etc/hybris/gcs-key.json"))
 *         .build();
 * // an emulator:
 * CloudStore fake = GcsCloudStore.builder("fake").endpoint(URI.create("http://127.0.0.1:4443"))
 *         .anonymous(true).project("test").bucket("test-bucket").createBucket(true).build();
 * }</pre>
 */
public final class GcsCloudStore implements CloudStore {
    /** Default TCP connect timeout. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default per-attempt request (socket read) timeout. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Default number of SDK retries: none, so Hybris's fallback to other clouds decides latency. */
    public static final int DEFAULT_RETRIES = 0;

    private static final int DEFAULT_READ_BUFFER = 2 << 20;
    private static final int MIN_READ_BUFFER = 16 << 10;

    private final GcsSettings settings;
    private final Storage storage;
    private final GcsErrors errors;
    private final CloseableHttpClient http;
    private final GcsAbortableRequests requests;
    private final InterruptibleCalls calls;

    private GcsCloudStore(GcsSettings settings, GcsClients.Clients clients, GcsAbortableRequests requests) {
        this.settings = settings;
        this.storage = clients.storage();
        this.http = clients.http();
        this.requests = requests;
        this.errors = new GcsErrors(settings.cloudId(), settings.bucket());
        this.calls = new InterruptibleCalls(settings.cloudId(), "hybris-gcs-" + settings.cloudId() + "-");
    }

    /**
     * Runs one SDK call through {@link InterruptibleCalls} with an abort action that shuts down the connections
     * of its requests: an interrupted caller, or a fired {@link io.hybris.spi.support.AbortSignal} (with which the
     * call runs on the calling thread), ends it at once, not at its timeout.
     */
    private <T> T call(String what, Callable<T> task) {
        GcsAbortableRequests.Call call = requests.newCall();
        return calls.call(what, requests.within(call, task), call::abort);
    }

    /** A builder for a store with the given Hybris cloud id. */
    public static Builder builder(String cloudId) {
        return new Builder(cloudId);
    }

    @Override
    public String id() {
        return settings.cloudId();
    }

    /** The bucket. */
    public String bucket() {
        return settings.bucket();
    }

    /** The object-name prefix inside the bucket: empty, or ending with {@code /}. */
    public String prefix() {
        return settings.prefix();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Objects.requireNonNull(value, "value");
        String name = nameOf(objectKey);
        call("put of '" + objectKey + "'", () -> {
            try {
                BlobInfo info = BlobInfo.newBuilder(BlobId.of(settings.bucket(), name))
                        .setContentType("application/octet-stream").build();
                storage.create(info, value, Storage.BlobTargetOption.disableGzipContent());
                return null;
            } catch (RuntimeException e) {
                if (GcsErrors.status(e) == 404) {
                    throw errors.missingBucket(e); // an upload only 404s when the bucket is gone
                }
                throw errors.map("put", objectKey, e);
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads through a {@link ReadChannel} limited to {@code maxBytes + 1} bytes (an HTTP range request), so a
     * larger object costs at most that much traffic. If the calling thread is interrupted (or, on a thread with an
     * {@link io.hybris.spi.support.AbortSignal} bound, the signal fires) the call ends at once with a
     * {@link io.hybris.spi.TransientCloudException}, keeping the interrupt flag, and the download's connection is
     * shut down.
     */
    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return get(objectKey, maxBytes, (bytes, offset, length) -> { });
    }

    /** Passes the object's bytes to {@code onBytes} chunk by chunk as they are read from the channel. */
    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        String name = nameOf(objectKey);
        return call("get of '" + objectKey + "'", () -> {
            try (ReadChannel channel = storage.reader(BlobId.of(settings.bucket(), name))) {
                if (maxBytes < Long.MAX_VALUE) {
                    channel.limit(maxBytes + 1);
                }
                if (maxBytes < DEFAULT_READ_BUFFER) {
                    // the channel's buffer is 2 MiB by default; small objects need far less
                    channel.setChunkSize((int) Math.max(MIN_READ_BUFFER, maxBytes + 1));
                }
                InputStream in = new StopOnInterrupt(Channels.newInputStream(channel));
                return Optional.of(BoundedReads.readAtMost(in, maxBytes, id(), objectKey, onBytes));
            } catch (CloudStoreException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                int status = GcsErrors.status(e);
                if (status == 404 && !GcsErrors.isMissingBucket(e)) {
                    return Optional.<byte[]>empty();
                }
                if (status == 416) {
                    return Optional.of(new byte[0]); // a range from 0 is unsatisfiable only for an empty object
                }
                throw errors.map("get", objectKey, e);
            }
        });
    }

    /** {@inheritDoc} Pages through the bucket listing 1,000 names at a time. */
    @Override
    public List<CloudObject> list(String prefix) {
        String namePrefix = nameOf(prefix);
        return call("list of '" + prefix + "'", () -> {
            try {
                List<CloudObject> out = new ArrayList<>();
                Page<Blob> page = storage.list(settings.bucket(), Storage.BlobListOption.prefix(namePrefix),
                        Storage.BlobListOption.pageSize(1000),
                        Storage.BlobListOption.fields(Storage.BlobField.NAME, Storage.BlobField.SIZE,
                                Storage.BlobField.UPDATED, Storage.BlobField.TIME_CREATED));
                String asked = null; // the token the current page was asked with
                while (page != null) {
                    for (Blob b : page.getValues()) {
                        out.add(toCloudObject(b));
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedIOException("list interrupted between pages");
                    }
                    String next = page.getNextPageToken();
                    if (page.hasNextPage() && next.equals(asked)) {
                        // the SDK would ask for the same page again, forever, collecting its names each time
                        throw new TransientCloudException(id(), "list of '" + prefix + "' in bucket '"
                                + settings.bucket() + "' failed: the service gave back the page token '" + next
                                + "' it was asked with, so the listing would never end");
                    }
                    asked = next;
                    page = page.hasNextPage() ? page.getNextPage() : null;
                }
                return out;
            } catch (RuntimeException | IOException e) {
                if (GcsErrors.status(e) == 404) {
                    throw errors.missingBucket(e);
                }
                throw errors.map("list", prefix, e);
            }
        });
    }

    @Override
    public void delete(String objectKey) {
        String name = nameOf(objectKey);
        call("delete of '" + objectKey + "'", () -> {
            try {
                storage.delete(BlobId.of(settings.bucket(), name)); // false if it did not exist: fine
                return null;
            } catch (RuntimeException e) {
                if (GcsErrors.status(e) == 404 && !GcsErrors.isMissingBucket(e)) {
                    return null;
                }
                throw errors.map("delete", objectKey, e);
            }
        });
    }

    /** Stops the worker threads, aborts calls still running, and releases the SDK and HTTP clients. */
    @Override
    public void close() {
        calls.close();
        try {
            storage.close();
        } catch (Exception e) {
            // nothing useful to do: the client holds no resources that outlive the JVM
        }
        try {
            http.close();
        } catch (IOException | RuntimeException e) {
            // as above: closing only releases pooled connections
        }
    }

    @Override
    public String toString() {
        return "GcsCloudStore[" + settings + "]";
    }

    private String nameOf(String objectKey) {
        return settings.prefix() + Objects.requireNonNull(objectKey, "objectKey");
    }

    private CloudObject toCloudObject(Blob b) {
        String key = b.getName().substring(settings.prefix().length());
        long size = b.getSize() == null ? 0L : b.getSize();
        OffsetDateTime when = b.getUpdateTimeOffsetDateTime() != null ? b.getUpdateTimeOffsetDateTime()
                : b.getCreateTimeOffsetDateTime();
        return new CloudObject(key, size, when == null ? Instant.EPOCH : when.toInstant());
    }

    /** Checks at start-up that the bucket exists (with a one-name listing, which needs only list rights). */
    private GcsCloudStore checkBucket() {
        try {
            call("bucket check", () -> {
                try {
                    storage.list(settings.bucket(), Storage.BlobListOption.prefix(settings.prefix()),
                            Storage.BlobListOption.pageSize(1), Storage.BlobListOption.fields(Storage.BlobField.NAME))
                            .getValues().iterator().hasNext();
                    return null;
                } catch (RuntimeException e) {
                    if (GcsErrors.status(e) != 404) {
                        throw errors.map("bucket check (list)", settings.prefix(), e);
                    }
                    if (!settings.createBucket()) {
                        throw errors.missingBucket(e);
                    }
                }
                try {
                    storage.create(BucketInfo.of(settings.bucket()));
                } catch (RuntimeException e) {
                    if (GcsErrors.status(e) != 409) { // 409: created meanwhile by someone else
                        throw errors.map("create-bucket", settings.bucket(), e);
                    }
                }
                return null;
            });
            return this;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Ends a download at the next chunk once the worker thread is interrupted (the caller gave up). */
    private static final class StopOnInterrupt extends FilterInputStream {
        StopOnInterrupt(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("download interrupted");
            }
            return super.read(b, off, len);
        }
    }

    /**
     * Collects and validates the configuration of a {@link GcsCloudStore}; {@link #build()} creates the client
     * and checks the bucket. Not thread-safe; the store it builds is.
     */
    public static final class Builder {
        private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]");

        private final String cloudId;
        private Function<String, String> keyNames = name -> name;
        private URI endpoint;
        private String project;
        private String bucket;
        private String prefix = "";
        private Path credentialsFile;
        private boolean anonymous;
        private Credentials credentials;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private int retries = DEFAULT_RETRIES;
        private boolean createBucket;
        private Path trustStore;
        private String trustStorePassword;

        private Builder(String cloudId) {
            this.cloudId = Objects.requireNonNull(cloudId, "cloudId");
        }

        /** How option names appear in error messages (the provider passes the full property keys). */
        Builder keyNames(Function<String, String> keyNames) {
            this.keyNames = Objects.requireNonNull(keyNames, "keyNames");
            return this;
        }

        /** The JSON API endpoint, e.g. {@code http://127.0.0.1:4443} for an emulator; default Google's. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        /** The project id; needed only to create the bucket (detected from the credentials if absent). */
        public Builder project(String project) {
            this.project = project;
            return this;
        }

        /** The bucket (required). */
        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /**
         * A prefix put before every object name, e.g. {@code team-a/} (a missing trailing {@code /} is added), so
         * several stores can share a bucket. Default none.
         */
        public Builder prefix(String prefix) {
            this.prefix = prefix == null ? "" : prefix;
            return this;
        }

        /** A Google credentials JSON file (a service account key); default Application Default Credentials. */
        public Builder credentialsFile(Path credentialsFile) {
            this.credentialsFile = credentialsFile;
            return this;
        }

        /** No credentials at all (emulators, public buckets). Default false. */
        public Builder anonymous(boolean anonymous) {
            this.anonymous = anonymous;
            return this;
        }

        /** Explicit credentials (e.g. impersonated or downscoped ones), instead of a file or ADC. */
        public Builder credentials(Credentials credentials) {
            this.credentials = credentials;
            return this;
        }

        /** TCP connect timeout; default {@link #DEFAULT_CONNECT_TIMEOUT}. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
            return this;
        }

        /** Per-attempt socket read timeout; default {@link #DEFAULT_REQUEST_TIMEOUT}. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
            return this;
        }

        /** SDK retries after a failed attempt (0 to 10); default {@link #DEFAULT_RETRIES}. */
        public Builder retries(int retries) {
            this.retries = retries;
            return this;
        }

        /** Create the bucket at start-up if it is missing; default false (a missing bucket is an error). */
        public Builder createBucket(boolean createBucket) {
            this.createBucket = createBucket;
            return this;
        }

        /** A trust store (PKCS#12 or JKS) with the CA of an https endpoint; default the JDK's trust store. */
        public Builder trustStore(Path trustStore) {
            this.trustStore = trustStore;
            return this;
        }

        /** The trust store's password; default none. */
        public Builder trustStorePassword(String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
            return this;
        }

        /**
         * Validates the configuration, creates the client and checks (or creates) the bucket.
         *
         * @throws HybrisConfigurationException naming the option, if the configuration is invalid
         * @throws PermanentCloudException      if the bucket is missing (and not to be created) or access is denied
         * @throws io.hybris.spi.TransientCloudException if the service cannot be reached
         */
        public GcsCloudStore build() {
            GcsSettings settings = settings();
            GcsAbortableRequests requests = new GcsAbortableRequests();
            return new GcsCloudStore(settings, GcsClients.create(settings, keyNames, requests), requests)
                    .checkBucket();
        }

        GcsSettings settings() {
            if (cloudId.isBlank()) {
                throw new HybrisConfigurationException("the cloud id must not be blank");
            }
            if (bucket == null || bucket.isBlank()) {
                throw new HybrisConfigurationException(keyNames.apply("bucket")
                        + " is required: the name of the GCS bucket that holds this cloud's objects");
            }
            if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
                throw new HybrisConfigurationException(keyNames.apply("bucket") + "=" + bucket
                        + " is not a valid GCS bucket name: use 3-222 lower-case letters, digits, '-', '_' and '.',"
                        + " starting and ending with a letter or digit");
            }
            String normalisedPrefix = normalisePrefix();
            if (endpoint != null && (endpoint.getHost() == null || endpoint.getScheme() == null
                    || !(endpoint.getScheme().equals("http") || endpoint.getScheme().equals("https")))) {
                throw new HybrisConfigurationException(keyNames.apply("endpoint") + "=" + endpoint
                        + " is not an http(s) URL with a host, e.g. https://storage.googleapis.com or "
                        + "http://127.0.0.1:4443");
            }
            int sources = (anonymous ? 1 : 0) + (credentialsFile != null ? 1 : 0) + (credentials != null ? 1 : 0);
            if (sources > 1) {
                throw new HybrisConfigurationException(keyNames.apply("anonymous") + " and "
                        + keyNames.apply("credentials-file") + " (or explicit credentials) contradict each other:"
                        + " set only one");
            }
            GcsCloudStoreProvider.CONNECT_TIMEOUT.check(keyNames.apply("connect-timeout"), connectTimeout);
            GcsCloudStoreProvider.REQUEST_TIMEOUT.check(keyNames.apply("request-timeout"), requestTimeout);
            GcsCloudStoreProvider.RETRIES.check(keyNames.apply("retries"), retries);
            GcsSettings.CredentialSource source = anonymous ? GcsSettings.CredentialSource.ANONYMOUS
                    : credentialsFile != null ? GcsSettings.CredentialSource.FILE
                    : credentials != null ? GcsSettings.CredentialSource.EXPLICIT
                    : GcsSettings.CredentialSource.APPLICATION_DEFAULT;
            return new GcsSettings(cloudId, Optional.ofNullable(endpoint), Optional.ofNullable(project), bucket,
                    normalisedPrefix, source, Optional.ofNullable(credentialsFile), Optional.ofNullable(credentials),
                    connectTimeout, requestTimeout, retries, createBucket, Optional.ofNullable(trustStore),
                    Optional.ofNullable(trustStorePassword));
        }

        /** The prefix as used: empty, or segments of key characters ending with {@code /} (added if missing). */
        private String normalisePrefix() {
            return ObjectKeyPrefix.normalize(keyNames.apply("prefix"), prefix);
        }
    }
}
