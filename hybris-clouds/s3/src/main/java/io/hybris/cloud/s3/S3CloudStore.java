/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.BoundedReads;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreException;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.TransientCloudException;
import io.hybris.spi.support.InterruptibleCalls;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link CloudStore} on Amazon S3 or any S3-compatible server (MinIO, Ceph RGW, ...), through the AWS SDK for
 * Java v2 with its Apache 5 HTTP client. Objects live in one bucket, optionally under a key prefix that
 * {@link #list} strips again.
 *
 * <ul>
 *   <li>Keys: an object key is stored as {@code <prefix><key>}, except a key with a path segment longer than 255
 *       characters, which MinIO and other file-backed servers refuse: it is stored under a hashed name that keeps
 *       its listing prefix, with the key in the object's metadata (see {@code KeyLayout}).</li>
 *   <li>{@link #get} asks for {@code Range: bytes=0-<maxBytes>}, so a correct server never sends more than
 *       {@code maxBytes + 1} bytes; if the object is larger (by its {@code Content-Range}) the download is aborted
 *       before the body is read, and a server that ignores the range is cut off after {@code maxBytes + 1} bytes.
 *       An empty object answers a range with 416 on some servers; it is then read without a range, still
 *       bounded.</li>
 *   <li>Errors: a missing object is empty; a missing bucket, 401/403 and other client errors are
 *       {@link io.hybris.spi.PermanentCloudException}s; 5xx, 408, 429, throttling, timeouts and I/O failures are
 *       {@link TransientCloudException}s. Messages keep the HTTP status, S3's error code and message.</li>
 *   <li>Interruption: each request runs on a worker thread while the caller waits; an interrupted caller aborts
 *       the request (closing its connection) and gets a {@link TransientCloudException} at once, with its
 *       interrupt flag kept.</li>
 *   <li>At start-up the bucket must exist, or be created when {@code createBucket(true)}; a missing bucket is a
 *       {@link io.hybris.spi.PermanentCloudException} naming it. A server that cannot be reached at start-up is
 *       only logged, as Hybris tolerates clouds that are down.</li>
 * </ul>
 *
 * <pre>{@code
 * try (S3CloudStore aws = S3CloudStore.builder("aws")
 *         .bucket("my-hybris-bucket").region("eu-central-1")
 *         .build()) {                       // credentials from the AWS default provider chain
 *     aws.put("hybris/photos/cat.jpg#1_abc", bytes);
 * }
 * }</pre>
 * Thread-safe; {@link #close()} releases the SDK client, its connections and the worker threads.
 */
public final class S3CloudStore implements CloudStore {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(S3CloudStore.class);

    private final S3Settings settings;
    private final S3Clients clients;
    private final S3Client s3;
    private final S3Errors errors;
    private final InterruptibleCalls calls;
    private final BodyDeadlines deadlines;

    private S3CloudStore(S3Settings settings) {
        this.settings = settings;
        this.errors = new S3Errors(settings);
        this.clients = S3Clients.create(settings);
        this.deadlines = new BodyDeadlines(settings.cloudId(), settings.requestTimeout());
        this.s3 = clients.s3();
        this.calls = new InterruptibleCalls(settings.cloudId(), "hybris-s3-" + settings.cloudId() + "-");
        try {
            new BucketPreparer(settings, s3, errors, calls).prepare();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        LOG.debug("cloud '{}': S3 store ready: {}", settings.cloudId(), settings);
    }

    /** A builder for a store with the given cloud id (the {@code <id>} of {@code hybris.cloud.<id>.*}). */
    public static Builder builder(String cloudId) {
        return new Builder(cloudId);
    }

    @Override
    public String id() {
        return settings.cloudId();
    }

    /** The bucket the objects live in. */
    public String bucket() {
        return settings.bucket();
    }

    /** The key prefix inside the bucket, ending with {@code /}, or empty. */
    public String prefix() {
        return settings.prefix();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Objects.requireNonNull(value, "value");
        String key = fullKey(objectKey);
        String what = "put of '" + objectKey + "' (" + value.length + " bytes)";
        InFlight.call(calls, what, inFlight -> {
            try {
                PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(settings.bucket()).key(key)
                        .contentLength((long) value.length);
                if (KeyLayout.needsHashing(objectKey)) {
                    request.metadata(Map.of(KeyLayout.METADATA_KEY, objectKey));
                }
                s3.putObject(request.build(),
                        RequestBody.fromContentProvider(ContentStreamProvider.fromByteArrayUnsafe(value),
                                value.length, "application/octet-stream"));
                return null;
            } catch (SdkException e) {
                throw errors.map(what, e, inFlight);
            }
        });
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return get(objectKey, maxBytes, (bytes, offset, length) -> { });
    }

    /** Passes the body to {@code onBytes} chunk by chunk as it is read from the response stream. */
    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        String key = fullKey(objectKey);
        String what = "get of '" + objectKey + "'";
        return InFlight.call(calls, what, inFlight -> {
            try {
                return read(objectKey, key, maxBytes, true, inFlight, onBytes);
            } catch (SdkException e) {
                if (S3Errors.status(e) == 416) {
                    return readWithoutRange(what, objectKey, key, maxBytes, inFlight, onBytes);
                }
                throw errors.map(what, e, inFlight);
            } catch (IOException e) {
                throw readFailure(what, e, inFlight);
            }
        });
    }

    /** An empty object has no byte 0, so some servers answer a range with 416: read it whole, still bounded. */
    private Optional<byte[]> readWithoutRange(String what, String objectKey, String key, long maxBytes,
                                              InFlight inFlight, ByteConsumer onBytes) {
        try {
            return read(objectKey, key, maxBytes, false, inFlight, onBytes);
        } catch (SdkException e) {
            throw errors.map(what, e, inFlight);
        } catch (IOException e) {
            throw readFailure(what, e, inFlight);
        }
    }

    private Optional<byte[]> read(String objectKey, String key, long maxBytes, boolean ranged, InFlight inFlight,
                                  ByteConsumer onBytes) throws IOException {
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(settings.bucket()).key(key);
        if (ranged && maxBytes < Long.MAX_VALUE) {
            request.range("bytes=0-" + maxBytes);
        }
        ResponseInputStream<GetObjectResponse> in;
        try {
            in = s3.getObject(request.build());
        } catch (SdkException e) {
            if (S3Errors.status(e) == 404 && !S3Errors.isMissingBucket(e)) {
                return Optional.empty();
            }
            throw e;
        }
        inFlight.register(in);
        boolean complete = false;
        try (BodyDeadlines.Deadline deadline = deadlines.start(in, inFlight.attemptStartNanos())) {
            long size = ObjectSizes.totalSize(in.response());
            if (size > maxBytes) {
                throw new OversizedObjectException(settings.cloudId(), objectKey, maxBytes);
            }
            try {
                byte[] bytes = BoundedReads.readAtMost(in, maxBytes, size, settings.cloudId(), objectKey, onBytes);
                complete = true;
                return Optional.of(bytes);
            } catch (IOException | RuntimeException e) {
                if (deadline.expired() && !inFlight.isAborted() && !(e instanceof OversizedObjectException)) {
                    throw new TransientCloudException(settings.cloudId(), "get of '" + objectKey + "' on "
                            + settings.describeLocation() + " timed out after " + settings.key("request-timeout")
                            + "=" + settings.requestTimeout() + " while reading the body: " + S3Errors.describe(e), e);
                }
                throw e;
            }
        } finally {
            release(in, complete);
        }
    }

    /**
     * Closes a response stream; one not read to its end is aborted first, so the HTTP client throws its
     * connection away instead of draining the rest of an oversized body to reuse the connection.
     */
    private static void release(ResponseInputStream<?> in, boolean readToEnd) {
        if (!readToEnd) {
            in.abort();
        }
        try {
            in.close();
        } catch (IOException | RuntimeException ignored) {
            // an aborted stream may complain on close; the response is discarded either way
        }
    }

    private CloudStoreException readFailure(String what, IOException e, InFlight inFlight) {
        if (inFlight.isAborted()) {
            return new TransientCloudException(settings.cloudId(), what + " aborted (interrupted) while reading: "
                    + e, e);
        }
        return new TransientCloudException(settings.cloudId(), what + " on " + settings.describeLocation()
                + " failed while reading the body: " + S3Errors.describe(e), e);
    }

    @Override
    public List<CloudObject> list(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        String what = "list of prefix '" + prefix + "'";
        String storePrefix = settings.prefix();
        return InFlight.call(calls, what, inFlight -> {
            List<CloudObject> out = new ArrayList<>();
            String token = null;
            try {
                do {
                    ListObjectsV2Response page = s3.listObjectsV2(ListObjectsV2Request.builder()
                            .bucket(settings.bucket()).prefix(storePrefix + KeyLayout.listPrefix(prefix))
                            .continuationToken(token).build());
                    for (S3Object o : page.contents()) {
                        if (o.key().startsWith(storePrefix)) {
                            originalKey(o.key()).filter(k -> k.startsWith(prefix)).ifPresent(k -> out.add(
                                    new CloudObject(k, o.size() == null ? 0 : o.size(),
                                            o.lastModified() == null ? Instant.EPOCH : o.lastModified())));
                        }
                    }
                    token = nextToken(what, page, token);
                } while (token != null);
            } catch (SdkException e) {
                throw errors.map(what, e, inFlight);
            }
            return out;
        });
    }

    /**
     * The continuation token of the page after {@code page}, or null at the end of the listing. A page that says the
     * listing is truncated but gives no token (an absent element is null), or gives back the token it was asked
     * with, is a broken answer: ending there would silently drop the rest of the names, and following it would
     * repeat the same page forever.
     */
    private String nextToken(String what, ListObjectsV2Response page, String asked) {
        if (!Boolean.TRUE.equals(page.isTruncated())) {
            return null;
        }
        String next = page.nextContinuationToken();
        if (next == null || next.isEmpty()) {
            throw new TransientCloudException(settings.cloudId(), what + " on " + settings.describeLocation()
                    + " failed: the server said the listing is truncated but gave no continuation token");
        }
        if (next.equals(asked)) {
            throw new TransientCloudException(settings.cloudId(), what + " on " + settings.describeLocation()
                    + " failed: the server said the listing is truncated but gave back the continuation token '"
                    + next + "' it was asked with, so the listing would never end");
        }
        return next;
    }

    /**
     * The Hybris key of a listed object: its stored key without the store's prefix, or for a hashed key (see
     * {@link KeyLayout}) the key in its metadata; empty if the object vanished or is not Hybris's.
     */
    private Optional<String> originalKey(String storedKey) {
        String relative = storedKey.substring(settings.prefix().length());
        if (!KeyLayout.isHashed(relative)) {
            return Optional.of(relative);
        }
        try {
            HeadObjectResponse head = s3.headObject(b -> b.bucket(settings.bucket()).key(storedKey));
            return Optional.ofNullable(head.metadata().get(KeyLayout.METADATA_KEY))
                    .filter(k -> KeyLayout.stored(k).equals(relative));
        } catch (SdkException e) {
            if (S3Errors.status(e) == 404 && !S3Errors.isMissingBucket(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public void delete(String objectKey) {
        String key = fullKey(objectKey);
        String what = "delete of '" + objectKey + "'";
        InFlight.call(calls, what, inFlight -> {
            try {
                s3.deleteObject(b -> b.bucket(settings.bucket()).key(key));
            } catch (SdkException e) {
                if (S3Errors.status(e) != 404 || S3Errors.isMissingBucket(e)) {
                    throw errors.map(what, e, inFlight);
                }
            }
            return null;
        });
    }

    /** Aborts running requests and releases the SDK client, its connections and the worker threads. */
    @Override
    public void close() {
        if (calls != null) {
            calls.close();
        }
        if (deadlines != null) {
            deadlines.close();
        }
        clients.close();
    }

    @Override
    public String toString() {
        return "S3CloudStore[" + settings.cloudId() + ": " + settings.describeLocation() + "]";
    }

    private String fullKey(String objectKey) {
        Objects.requireNonNull(objectKey, "objectKey");
        if (objectKey.isEmpty()) {
            throw new IllegalArgumentException("objectKey must not be empty");
        }
        return settings.prefix() + KeyLayout.stored(objectKey);
    }

    /**
     * Configures an {@link S3CloudStore}; {@link #build()} validates everything (messages name the
     * {@code hybris.cloud.<id>.<option>} property) and checks (or creates) the bucket. Not thread-safe; the store
     * it builds is immutable in its configuration.
     */
    public static final class Builder {
        final String cloudId;
        URI endpoint;
        String region;
        String bucket;
        String prefix;
        String accessKey;
        String secretKey;
        String sessionToken;
        Boolean pathStyle;
        Duration connectTimeout;
        Duration requestTimeout;
        Integer retries;
        boolean createBucket;
        Integer maxConnections;
        Path trustStore;
        String trustStorePassword;

        private Builder(String cloudId) {
            this.cloudId = cloudId;
        }

        /** The S3 endpoint of an S3-compatible server, e.g. {@code http://127.0.0.1:9000}; default AWS's. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        /** The region; default {@code us-east-1}. */
        public Builder region(String region) {
            this.region = region;
            return this;
        }

        /** The bucket (required). */
        public Builder bucket(String bucket) {
            this.bucket = bucket;
            return this;
        }

        /** A key prefix inside the bucket ({@code /} is appended if missing); default none. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /** Static credentials; without them the AWS default credentials provider chain is used. */
        public Builder credentials(String accessKey, String secretKey) {
            this.accessKey = accessKey;
            this.secretKey = secretKey;
            return this;
        }

        /** A session token to go with {@link #credentials} (temporary credentials). */
        public Builder sessionToken(String sessionToken) {
            this.sessionToken = sessionToken;
            return this;
        }

        /** Path-style URLs ({@code endpoint/bucket/key}); default true with an endpoint, false for AWS. */
        public Builder pathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
            return this;
        }

        /** The TCP connect timeout; default 5 s. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** The time limit of one attempt of one request, body transfer included; default 60 s. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /** SDK retries after a failed attempt (0-10); default 0, so Hybris falls back to another cloud. */
        public Builder retries(int retries) {
            this.retries = retries;
            return this;
        }

        /** Whether to create the bucket at start-up if it is missing; default false (a missing bucket fails). */
        public Builder createBucket(boolean createBucket) {
            this.createBucket = createBucket;
            return this;
        }

        /** The size of the HTTP connection pool; default 50. */
        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /** A PKCS#12 or JKS trust store for an https endpoint signed by a private CA; default the JDK's. */
        public Builder trustStore(Path trustStore) {
            this.trustStore = trustStore;
            return this;
        }

        /** The trust store's password, if it has one. */
        public Builder trustStorePassword(String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
            return this;
        }

        /**
         * Validates the configuration, builds the SDK client and checks (or creates) the bucket.
         *
         * @throws io.hybris.HybrisConfigurationException for an invalid or missing option
         * @throws io.hybris.spi.PermanentCloudException if the bucket is missing (and not to be created) or
         *         access to it is denied
         */
        public S3CloudStore build() {
            return new S3CloudStore(S3Settings.of(this));
        }
    }
}
