/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.PreconditionFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gateway's one HTTP handler: parses the request (path-style {@code /bucket/key}), checks its size and its
 * signature, picks the operation by method, path and query, and answers every failure with S3's XML error. A query
 * parameter or operation it does not know is {@code NotImplemented} — never a success that did something else.
 */
final class S3Handler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(S3Handler.class);
    /** Query parameters the gateway understands; any other makes the request NotImplemented. */
    private static final Set<String> KNOWN = Set.of("list-type", "prefix", "delimiter", "max-keys", "marker",
            "continuation-token", "start-after", "encoding-type", "fetch-owner", "uploadId", "partNumber", "uploads",
            "delete", "location", "max-parts", "part-number-marker", "key-marker", "upload-id-marker",
            "max-uploads", "x-id", "response-content-type", "response-content-disposition",
            "response-content-encoding", "response-content-language", "response-cache-control", "response-expires",
            "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
            "X-Amz-Signature", "X-Amz-Security-Token", "x-amz-checksum-mode", "AWSAccessKeyId", "Signature",
            "Expires");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final RequestAuthenticator authenticator;
    private final int maxHeaderBytes;
    private final Buckets buckets;
    private final BucketOperations bucketOps;
    private final ObjectOperations objects;
    private final Listings listings;
    private final MultipartUploads multipart;
    private final InFlightRequests inFlight;

    S3Handler(Hybris hybris, RequestAuthenticator authenticator, int maxHeaderBytes, InFlightRequests inFlight,
              java.util.function.LongSupplier nanoTime) {
        this.buckets = new Buckets(hybris);
        this.authenticator = authenticator;
        this.maxHeaderBytes = maxHeaderBytes;
        this.bucketOps = new BucketOperations(hybris, buckets);
        this.objects = new ObjectOperations(hybris, buckets);
        this.listings = new Listings(hybris, buckets);
        this.multipart = new MultipartUploads(hybris, buckets, nanoTime);
        this.inFlight = inFlight;
    }

    void close() {
        multipart.close();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        byte[] id = new byte[8];
        RANDOM.nextBytes(id);
        String requestId = HexFormat.of().withUpperCase().formatHex(id);
        exchange.getResponseHeaders().set("x-amz-request-id", requestId);
        exchange.getResponseHeaders().set("Server", "HybrisS3Gateway");
        S3Request r = null;
        boolean admitted = inFlight.enter();
        try {
            if (!admitted) {
                exchange.getResponseHeaders().set("Connection", "close");
                throw new S3Exception(503, "ServiceUnavailable", "The gateway is stopping; retry the request");
            }
            checkHeaderSize(exchange);
            r = S3Request.of(exchange);
            Authenticated auth = authenticator.authenticate(r);
            dispatch(r, auth);
        } catch (S3Exception e) {
            error(exchange, e, r, requestId);
        } catch (PreconditionFailedException e) {
            error(exchange, ObjectOperations.preconditionFailed("the object's current version"), r, requestId);
        } catch (HybrisException e) {
            error(exchange, Failures.toS3(e), r, requestId);
        } catch (IOException e) {
            LOG.debug("request {} {}: connection failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(),
                    e.toString());
        } catch (RuntimeException e) {
            LOG.warn("request {} {} failed unexpectedly", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            error(exchange, new S3Exception(500, "InternalError", "We encountered an internal error. Please try"
                    + " again."), r, requestId);
        } finally {
            exchange.close();
            if (admitted) {
                inFlight.exit();
            }
        }
    }

    private void checkHeaderSize(HttpExchange exchange) {
        long bytes = 0;
        for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
            for (String v : h.getValue()) {
                bytes += h.getKey().length() + v.length() + 4;
            }
        }
        if (bytes > maxHeaderBytes) {
            throw new S3Exception(400, "RequestHeaderSectionTooLarge", "Your request header section exceeds the"
                    + " maximum allowed size of " + maxHeaderBytes + " bytes");
        }
    }

    private void dispatch(S3Request r, Authenticated auth) throws IOException {
        for (String param : r.query().keySet()) {
            if (!KNOWN.contains(param)) {
                throw S3Exception.notImplemented("the '" + param + "' request (query parameter " + param + ")");
            }
        }
        String m = r.method();
        if (r.bucket() == null) {
            if (m.equals("GET")) {
                bucketOps.listBuckets(r);
                return;
            }
            throw S3Exception.notImplemented(m + " on the service");
        }
        if (r.key() == null) {
            switch (m) {
                case "PUT" -> bucketOps.create(r);
                case "HEAD" -> bucketOps.head(r);
                case "DELETE" -> bucketOps.delete(r);
                case "GET" -> {
                    if (r.has("location")) {
                        bucketOps.location(r);
                    } else if (r.has("uploads")) {
                        multipart.listUploads(r);
                    } else {
                        listings.list(r, "2".equals(r.param("list-type")));
                    }
                }
                case "POST" -> {
                    if (!r.has("delete")) {
                        throw S3Exception.notImplemented("POST on a bucket (browser uploads)");
                    }
                    bucketOps.deleteObjects(r);
                }
                default -> throw S3Exception.notImplemented(m + " on a bucket");
            }
            return;
        }
        switch (m) {
            case "PUT" -> {
                if (r.has("uploadId") || r.has("partNumber")) {
                    multipart.uploadPart(r, auth);
                } else {
                    try (Buckets.Write w = buckets.writing(r.bucket())) { // a DeleteBucket here waits, or fails
                        if (r.header("x-amz-copy-source") != null) {
                            objects.copy(r);
                        } else {
                            objects.put(r, auth);
                        }
                    }
                }
            }
            case "GET", "HEAD" -> {
                if (r.has("uploadId") && m.equals("GET")) {
                    multipart.listParts(r);
                } else if (r.has("partNumber")) {
                    throw S3Exception.notImplemented("GET or HEAD of one part (partNumber)");
                } else {
                    objects.get(r, m.equals("HEAD"));
                }
            }
            case "DELETE" -> {
                if (r.has("uploadId")) {
                    multipart.abort(r);
                } else {
                    objects.delete(r);
                }
            }
            case "POST" -> {
                if (r.has("uploads") || r.has("uploadId")) {
                    try (Buckets.Write w = buckets.writing(r.bucket())) {
                        if (r.has("uploads")) {
                            multipart.create(r);
                        } else {
                            multipart.complete(r);
                        }
                    }
                } else {
                    throw S3Exception.notImplemented("POST on an object");
                }
            }
            default -> throw S3Exception.notImplemented(m + " on an object");
        }
    }

    private static void error(HttpExchange x, S3Exception e, S3Request r, String requestId) {
        if (e.status() >= 500) {
            LOG.warn("{} {}: {} {}", x.getRequestMethod(), x.getRequestURI(), e.code(), e.getMessage(),
                    e.getCause());
        } else {
            LOG.debug("{} {}: {} {}", x.getRequestMethod(), x.getRequestURI(), e.code(), e.getMessage());
        }
        try {
            String resource = r == null ? x.getRequestURI().getRawPath() : r.rawPath();
            Exchanges.xml(x, e.status(), S3Xml.error(e.code(), e.getMessage(), resource, requestId));
        } catch (IOException | RuntimeException ignored) {
            // the response had begun, or the client left: nothing more to say
        }
    }
}
