/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobItemProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.DownloadRetryOptions;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A {@link CloudStore} on one Azure Blob Storage container (or a key prefix inside it), through the
 * {@code azure-storage-blob} SDK on the JDK HTTP client. Each object is one block blob written with a single
 * Put Blob request, so an overwrite is atomic. Thread-safe; {@link #close()} ends the calls in flight and releases
 * the HTTP client's threads.
 *
 * <ul>
 * <li><b>Byte limit</b>: {@link #get} asks for the range {@code bytes=0-maxBytes} and also stops collecting after
 * {@code maxBytes} bytes, so at most {@code maxBytes + 1} bytes are read even from a server that ignores ranges; an
 * empty blob (where any range is unsatisfiable, HTTP 416) is fetched without a range under the same cap.</li>
 * <li><b>Errors</b>: a missing blob is {@link Optional#empty()} (a no-op for {@link #delete}); 401/403 and a missing
 * container are {@link PermanentCloudException}, 408/409/429/5xx, timeouts and I/O failures are
 * {@link TransientCloudException}; messages keep the HTTP status, Azure's error code and its message.</li>
 * <li><b>Retries</b>: the SDK retries a failed request {@code retries} times (default 0), so Hybris's own
 * fallback to another cloud decides latency rather than an SDK back-off loop.</li>
 * <li><b>Interruption</b>: an interrupted caller gets a {@link TransientCloudException} at once, with its interrupt
 * flag set; the SDK cancels the HTTP exchange.</li>
 * <li><b>Start-up</b>: {@link Builder#build()} checks that the container exists (listing at most one blob) and
 * throws a {@link PermanentCloudException} naming it if not, or creates it when {@code createBucket(true)}.</li>
 * </ul>
 *
 * <pre>{@code
 * CloudStore azure = AzureBlobCloudStore.builder("azure")
 *         .account("mystorageaccount").key(System.getenv("AZURE_STORAGE_KEY"))
 *         .container("hybris")
 *         .build();
 * }</pre>
 */
public final class AzureBlobCloudStore implements CloudStore {
    /** Azure's limit on the length of a blob name, prefix included. */
    public static final int MAX_BLOB_NAME = 1024;
    /** Names per List Blobs page: Azure's maximum. */
    static final int LIST_PAGE_SIZE = 5000;

    private final AzureBlobSettings settings;
    private final AzureBlobClients clients;
    private final BlobContainerClient container;
    private final AzureBlobErrors errors;
    private final DownloadRetryOptions downloadRetries;
    private final int listPageSize;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CallsInFlight inFlight = new CallsInFlight();

    private AzureBlobCloudStore(AzureBlobSettings settings, AzureBlobClients clients, int listPageSize) {
        this.settings = settings;
        this.clients = clients;
        this.container = clients.container();
        this.errors = new AzureBlobErrors(settings);
        this.downloadRetries = new DownloadRetryOptions().setMaxRetryRequests(settings.retries());
        this.listPageSize = listPageSize;
    }

    /** A builder for a store configured under {@code hybris.cloud.<cloudId>.*} (the id is used in messages). */
    public static Builder builder(String cloudId) {
        return new Builder(cloudId);
    }

    @Override
    public String id() {
        return settings.cloudId();
    }

    /** The container this store keeps its objects in. */
    public String container() {
        return settings.container();
    }

    /** The prefix put in front of every object key inside the container; empty or ending with {@code /}. */
    public String prefix() {
        return settings.prefix();
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Objects.requireNonNull(value, "value");
        String what = "put of '" + objectKey + "'";
        BlockBlobClient blob = blob(what, objectKey);
        call(what, () -> {
            blob.uploadWithResponse(new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(value)), null,
                    Context.NONE);
            return null;
        });
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return get(objectKey, maxBytes, (bytes, offset, length) -> { });
    }

    /** Passes the blob's bytes to {@code onBytes} as the SDK writes them into the download sink. */
    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        String what = "get of '" + objectKey + "'";
        BlockBlobClient blob = blob(what, objectKey);
        // BlobRange(offset, count): bytes=0-maxBytes, one byte more than allowed, to tell "too large" apart.
        BlobRange limited = maxBytes == Long.MAX_VALUE ? new BlobRange(0) : new BlobRange(0, maxBytes + 1);
        return call(what, () -> {
            try {
                return Optional.of(download(blob, limited, objectKey, maxBytes, onBytes));
            } catch (RuntimeException e) {
                if (AzureBlobErrors.isBlobNotFound(e)) {
                    return Optional.empty();
                }
                if (!AzureBlobErrors.isInvalidRange(e)) {
                    throw e;
                }
            }
            // 416: the blob is empty, so no range is satisfiable; fetch it whole, still capped at maxBytes.
            try {
                return Optional.of(download(blob, new BlobRange(0), objectKey, maxBytes, onBytes));
            } catch (RuntimeException e) {
                if (AzureBlobErrors.isBlobNotFound(e)) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    private byte[] download(BlockBlobClient blob, BlobRange range, String objectKey, long maxBytes,
                            ByteConsumer onBytes) {
        BoundedSink sink = new BoundedSink(maxBytes, onBytes);
        try {
            blob.downloadStreamWithResponse(sink, range, downloadRetries, null, false, null, Context.NONE);
        } catch (RuntimeException e) {
            if (sink.overflowed()) {
                throw new OversizedObjectException(id(), objectKey, maxBytes);
            }
            throw e;
        }
        if (sink.overflowed()) {
            throw new OversizedObjectException(id(), objectKey, maxBytes);
        }
        return sink.toByteArray();
    }

    @Override
    public List<CloudObject> list(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        String what = "list of '" + prefix + "'";
        String full = settings.prefix() + prefix;
        return call(what, () -> {
            List<CloudObject> out = new ArrayList<>();
            ListBlobsOptions options = new ListBlobsOptions().setPrefix(full.isEmpty() ? null : full)
                    .setMaxResultsPerPage(listPageSize);
            String asked = null; // the marker the current page was asked with
            for (PagedResponse<BlobItem> page : container.listBlobs(options, null).iterableByPage()) {
                for (BlobItem item : page.getValue()) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new TransientCloudException(id(), what + " interrupted after " + out.size()
                                + " objects");
                    }
                    String name = item.getName();
                    if (!name.startsWith(full)) {
                        continue; // a server that ignores the prefix must not leak other objects
                    }
                    BlobItemProperties p = item.getProperties();
                    long size = p == null || p.getContentLength() == null ? 0 : p.getContentLength();
                    Instant modified = p == null || p.getLastModified() == null ? Instant.EPOCH
                            : p.getLastModified().toInstant();
                    out.add(new CloudObject(name.substring(settings.prefix().length()), size, modified));
                }
                String next = page.getContinuationToken();
                if (next != null && !next.isEmpty() && next.equals(asked)) {
                    // the SDK would ask for the same page again, forever, collecting its names each time
                    throw new TransientCloudException(id(), what + " on " + settings.describeLocation() + " failed:"
                            + " the service gave back the marker '" + next + "' it was asked with, so the listing"
                            + " would never end");
                }
                asked = next;
            }
            return out;
        });
    }

    @Override
    public void delete(String objectKey) {
        String what = "delete of '" + objectKey + "'";
        BlockBlobClient blob = blob(what, objectKey);
        call(what, () -> {
            try {
                blob.deleteWithResponse(null, null, null, Context.NONE);
            } catch (RuntimeException e) {
                if (!AzureBlobErrors.isBlobNotFound(e)) {
                    throw e;
                }
            }
            return null;
        });
    }

    /**
     * Ends the calls in flight (each with a {@link TransientCloudException}) and releases the HTTP client's threads;
     * calls after this fail with a {@link TransientCloudException}.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            inFlight.cancelAll();
            clients.close();
        }
    }

    @Override
    public String toString() {
        return "AzureBlobCloudStore[" + id() + ", " + settings.describeLocation() + "]";
    }

    private BlockBlobClient blob(String what, String objectKey) {
        Objects.requireNonNull(objectKey, "objectKey");
        String name = settings.prefix() + objectKey;
        if (name.length() > MAX_BLOB_NAME) {
            throw new PermanentCloudException(id(), what + " impossible: the blob name would be " + name.length()
                    + " characters, more than Azure's " + MAX_BLOB_NAME + (settings.prefix().isEmpty() ? ""
                    : "; shorten " + settings.key("prefix")));
        }
        return container.getBlobClient(name).getBlockBlobClient();
    }

    private <T> T call(String what, Supplier<T> operation) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TransientCloudException(id(), what + " not started: the calling thread is interrupted");
        }
        if (closed.get()) {
            throw new TransientCloudException(id(), what + " not started: the store is closed");
        }
        CallsInFlight.Call call = inFlight.start();
        try {
            if (closed.get()) { // closed since the check above, before close() could see this call
                throw new TransientCloudException(id(), what + " not started: the store is closed");
            }
            return operation.get(); // an answer that came as the store closed stands
        } catch (RuntimeException e) {
            if (call.end()) {
                throw new TransientCloudException(id(), what + " cancelled: the store was closed", e);
            }
            throw errors.map(what, e);
        } finally {
            call.end();
        }
    }

    private void checkContainer() {
        String what = "start-up check of container '" + settings.container() + "'";
        call(what, () -> {
            if (settings.createBucket()) {
                container.createIfNotExists();
            } else {
                container.listBlobs(new ListBlobsOptions().setMaxResultsPerPage(1), null).iterableByPage()
                        .iterator().next();
            }
            return null;
        });
    }

    /**
     * Configures an {@link AzureBlobCloudStore}. Required: {@link #container}, and exactly one way to authorise:
     * {@link #account} with {@link #key}, {@link #sasToken} (with {@link #endpoint} or {@link #account}), or
     * {@link #connectionString}. Not thread-safe; {@link #build()} validates everything and may be called again.
     */
    public static final class Builder {
        final String cloudId;
        String endpoint;
        String container;
        String prefix;
        String account;
        String key;
        String sasToken;
        String connectionString;
        Duration connectTimeout;
        Duration requestTimeout;
        Integer retries;
        boolean createBucket;
        Path trustStore;
        String trustStorePassword;
        int listPageSize = LIST_PAGE_SIZE;
        UnaryOperator<HttpClient> aroundJdkHttpClient = UnaryOperator.identity();
        Consumer<java.net.http.HttpRequest> seenByJdkClient = request -> { };

        private Builder(String cloudId) {
            this.cloudId = cloudId;
        }

        /**
         * The blob service URL, e.g. {@code https://<account>.blob.core.windows.net} or Azurite's
         * {@code http://127.0.0.1:10000/devstoreaccount1}; default derived from {@link #account}.
         */
        public Builder endpoint(String endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        /** As {@link #endpoint(String)}. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint == null ? null : endpoint.toString();
            return this;
        }

        /** The container (required): 3-63 lower-case letters, digits and single hyphens. */
        public Builder container(String container) {
            this.container = container;
            return this;
        }

        /** A key prefix inside the container ({@code /} is appended if missing); default none. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /** The storage account name: with {@link #key}, or to derive the endpoint. */
        public Builder account(String account) {
            this.account = account;
            return this;
        }

        /** The account's base64 shared key (needs {@link #account}). */
        public Builder key(String key) {
            this.key = key;
            return this;
        }

        /** A shared access signature (query string, with or without the leading {@code ?}). */
        public Builder sasToken(String sasToken) {
            this.sasToken = sasToken;
            return this;
        }

        /** A storage connection string, which also gives the account and the endpoint. */
        public Builder connectionString(String connectionString) {
            this.connectionString = connectionString;
            return this;
        }

        /** How long to wait for a TCP/TLS connection; default 5 s. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /**
         * The limit of one attempt: until the response starts, and the longest pause while a body is sent or
         * received; default 60 s.
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /** How often the SDK retries a failed request (0-10); default 0. */
        public Builder retries(int retries) {
            this.retries = retries;
            return this;
        }

        /** Whether {@link #build()} creates a missing container (default false: a missing one is an error). */
        public Builder createBucket(boolean createBucket) {
            this.createBucket = createBucket;
            return this;
        }

        /** A PKCS#12 or JKS trust store for an https endpoint with a private CA; default the JDK's. */
        public Builder trustStore(Path trustStore) {
            this.trustStore = trustStore;
            return this;
        }

        /** The trust store's password, if it has one. */
        public Builder trustStorePassword(String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
            return this;
        }

        /** Names per List Blobs page (tests use small pages to exercise paging). */
        Builder listPageSize(int listPageSize) {
            if (listPageSize < 1 || listPageSize > LIST_PAGE_SIZE) {
                throw new IllegalArgumentException("listPageSize must be 1-" + LIST_PAGE_SIZE + ": " + listPageSize);
            }
            this.listPageSize = listPageSize;
            return this;
        }

        /**
         * Puts {@code around} between the driver's HTTP client and the SDK's JDK HTTP client (tests record what
         * reaches the JDK client with it).
         */
        Builder aroundJdkHttpClient(UnaryOperator<HttpClient> around) {
            this.aroundJdkHttpClient = Objects.requireNonNull(around, "around");
            return this;
        }

        /** Shows {@code seen} every request the SDK's JDK adapter hands to the JDK client (tests record them). */
        Builder seenByJdkClient(Consumer<java.net.http.HttpRequest> seen) {
            this.seenByJdkClient = Objects.requireNonNull(seen, "seen");
            return this;
        }

        /**
         * Validates the options, builds the client and checks (or creates) the container.
         *
         * @throws HybrisConfigurationException naming the option that is missing or wrong
         * @throws PermanentCloudException if the container is missing (naming it) or the credentials are refused
         * @throws TransientCloudException if the service cannot be reached
         */
        public AzureBlobCloudStore build() {
            AzureBlobSettings settings = AzureBlobSettings.of(this);
            AzureBlobCloudStore store = new AzureBlobCloudStore(settings, AzureBlobClients.open(settings,
                    aroundJdkHttpClient, seenByJdkClient), listPageSize);
            try {
                store.checkContainer();
                return store;
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
    }
}
