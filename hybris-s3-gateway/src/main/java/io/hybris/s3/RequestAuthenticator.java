/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks AWS Signature Version 4 — in the {@code Authorization} header or in a presigned URL's query — against
 * the gateway's access keys: rebuilds the canonical request and the string to sign, derives the signing key from
 * the secret and compares signatures in constant time. Also rejects a request dated more than 15 minutes away from
 * now, and an expired presigned URL. Every failure is the S3 error a client expects (AccessDenied,
 * InvalidAccessKeyId, SignatureDoesNotMatch, RequestTimeTooSkewed, AuthorizationHeaderMalformed). Thread-safe.
 */
final class RequestAuthenticator {
    /** The values x-amz-content-sha256 may take: a hex SHA-256, an unsigned payload, or a streaming mode. */
    private static final java.util.regex.Pattern PAYLOAD_HASH = java.util.regex.Pattern.compile(
            "[0-9a-fA-F]{64}|UNSIGNED-PAYLOAD|STREAMING-[A-Z0-9-]+");
    /** x-amz-* headers a proxy in front of the gateway adds on its way (CloudFront's request id): not the client's. */
    private static final java.util.Set<String> ADDED_BY_PROXIES = java.util.Set.of("x-amz-cf-id");
    static final Duration MAX_SKEW = Duration.ofMinutes(15);
    private static final long MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    private final Map<String, String> secrets;
    private final Clock clock;

    RequestAuthenticator(Map<String, String> secrets, Clock clock) {
        this.secrets = Map.copyOf(secrets);
        this.clock = clock;
    }

    Authenticated authenticate(S3Request r) {
        String authorization = r.header("authorization");
        if (authorization != null) {
            return fromHeader(r, authorization);
        }
        if (r.has("X-Amz-Signature") || r.has("X-Amz-Credential")) {
            return fromQuery(r);
        }
        if (r.has("Signature") || r.has("AWSAccessKeyId")) {
            return fromV2Query(r);
        }
        throw new S3Exception(403, "AccessDenied", "Anonymous access is not allowed: sign requests with one of the"
                + " gateway's access keys (AWS Signature Version 4)");
    }

    private Authenticated fromHeader(S3Request r, String authorization) {
        if (authorization.startsWith("AWS ")) {
            throw new S3Exception(400, "InvalidRequest", "Signature Version 2 is not supported; sign with AWS"
                    + " Signature Version 4 (AWS4-HMAC-SHA256)");
        }
        if (!authorization.startsWith(SigV4.ALGORITHM + " ")) {
            throw malformed("the Authorization header must start with " + SigV4.ALGORITHM);
        }
        Map<String, String> parts = new TreeMap<>();
        for (String part : authorization.substring(SigV4.ALGORITHM.length() + 1).split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                parts.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        String credential = parts.get("Credential");
        String signedHeaders = parts.get("SignedHeaders");
        String signature = parts.get("Signature");
        if (credential == null || signedHeaders == null || signature == null) {
            throw malformed("the Authorization header needs Credential, SignedHeaders and Signature");
        }
        String amzDate = r.header("x-amz-date");
        if (amzDate == null) {
            throw new S3Exception(403, "AccessDenied", "AWS authentication requires a valid x-amz-date header");
        }
        Instant when = parseDate(amzDate);
        Instant now = clock.instant();
        if (Duration.between(when, now).abs().compareTo(MAX_SKEW) > 0) {
            throw new S3Exception(403, "RequestTimeTooSkewed", "The difference between the request time ("
                    + amzDate + ") and the server's time (" + AMZ_DATE.format(now.atOffset(ZoneOffset.UTC))
                    + ") is too large (more than 15 minutes)");
        }
        String payload = r.header("x-amz-content-sha256");
        if (payload == null) {
            throw new S3Exception(400, "InvalidRequest", "Missing required header for this request:"
                    + " x-amz-content-sha256");
        }
        if (!PAYLOAD_HASH.matcher(payload).matches()) {
            // anything else would be taken for an unsigned payload: the body would go unchecked
            throw new S3Exception(400, "InvalidArgument", "x-amz-content-sha256 must be the hex SHA-256 of the body,"
                    + " UNSIGNED-PAYLOAD or a STREAMING-... mode, not " + payload);
        }
        return verify(r, credential, amzDate, signedHeaders, signature, payload, r.query(), false);
    }

    private Authenticated fromQuery(S3Request r) {
        if (!SigV4.ALGORITHM.equals(r.param("X-Amz-Algorithm"))) {
            throw queryError("X-Amz-Algorithm must be " + SigV4.ALGORITHM);
        }
        String credential = r.param("X-Amz-Credential");
        String amzDate = r.param("X-Amz-Date");
        String expires = r.param("X-Amz-Expires");
        String signedHeaders = r.param("X-Amz-SignedHeaders");
        String signature = r.param("X-Amz-Signature");
        if (credential == null || amzDate == null || expires == null || signedHeaders == null || signature == null) {
            throw queryError("a presigned URL needs X-Amz-Credential, X-Amz-Date, X-Amz-Expires,"
                    + " X-Amz-SignedHeaders and X-Amz-Signature");
        }
        long seconds;
        try {
            seconds = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw queryError("X-Amz-Expires must be a number of seconds");
        }
        if (seconds < 1 || seconds > MAX_PRESIGNED_SECONDS) {
            throw queryError("X-Amz-Expires must be between 1 and " + MAX_PRESIGNED_SECONDS + " seconds");
        }
        Instant when = parseDate(amzDate);
        Instant now = clock.instant();
        if (now.isAfter(when.plusSeconds(seconds))) {
            throw new S3Exception(403, "AccessDenied", "Request has expired: the presigned URL was valid until "
                    + AMZ_DATE.format(when.plusSeconds(seconds).atOffset(ZoneOffset.UTC)));
        }
        if (when.isAfter(now.plus(MAX_SKEW))) {
            throw new S3Exception(403, "AccessDenied", "Request is not valid yet (X-Amz-Date " + amzDate + ")");
        }
        Map<String, String> query = new java.util.LinkedHashMap<>(r.query());
        query.remove("X-Amz-Signature");
        String payload = r.header("x-amz-content-sha256") != null ? r.header("x-amz-content-sha256")
                : "UNSIGNED-PAYLOAD";
        return verify(r, credential, amzDate, signedHeaders, signature, payload, query, true);
    }

    /**
     * A Signature Version 2 presigned URL (what {@code aws s3 presign} makes by default): HMAC-SHA1 over the method,
     * Content-MD5, Content-Type, Expires, the x-amz headers and the resource with its subresources. Only for GET and
     * HEAD: a V2-signed upload would carry an unsigned body.
     */
    private Authenticated fromV2Query(S3Request r) {
        String accessKey = r.param("AWSAccessKeyId");
        String signature = r.param("Signature");
        String expires = r.param("Expires");
        if (accessKey == null || signature == null || expires == null) {
            throw queryError("a Signature Version 2 presigned URL needs AWSAccessKeyId, Signature and Expires");
        }
        if (!r.method().equals("GET") && !r.method().equals("HEAD")) {
            throw new S3Exception(403, "AccessDenied", "Signature Version 2 presigned URLs are accepted for GET and"
                    + " HEAD only; presign uploads with Signature Version 4");
        }
        long until;
        try {
            until = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw queryError("Expires must be epoch seconds");
        }
        if (clock.instant().getEpochSecond() > until) {
            throw new S3Exception(403, "AccessDenied", "Request has expired (Expires " + expires + ")");
        }
        String secret = secrets.get(accessKey);
        if (secret == null) {
            throw new S3Exception(403, "InvalidAccessKeyId", "The AWS access key Id you provided does not exist in"
                    + " the gateway's records: " + accessKey);
        }
        StringBuilder amz = new StringBuilder();
        r.headers().forEach((name, values) -> {
            if (name.startsWith("x-amz-")) {
                amz.append(name).append(':').append(String.join(",", values).trim()).append('\n');
            }
        });
        StringBuilder resource = new StringBuilder(r.rawPath());
        TreeMap<String, String> sub = new TreeMap<>();
        r.query().forEach((k, v) -> {
            if (V2_SUBRESOURCES.contains(k)) {
                sub.put(k, v);
            }
        });
        char sep = '?';
        for (Map.Entry<String, String> e : sub.entrySet()) {
            resource.append(sep).append(e.getKey());
            if (!e.getValue().isEmpty()) {
                resource.append('=').append(e.getValue());
            }
            sep = '&';
        }
        String toSign = r.method() + "\n" + nullToEmpty(r.header("content-md5")) + "\n"
                + nullToEmpty(r.header("content-type")) + "\n" + expires + "\n" + amz + resource;
        String expected = java.util.Base64.getEncoder().encodeToString(hmacSha1(secret, toSign));
        if (!SigV4.same(expected, signature)) {
            throw new S3Exception(403, "SignatureDoesNotMatch", "The request signature we calculated does not match"
                    + " the signature you provided (Signature Version 2). Check your key and signing method.");
        }
        return new Authenticated(accessKey, "UNSIGNED-PAYLOAD", null, null, null, null);
    }

    private static final java.util.Set<String> V2_SUBRESOURCES = java.util.Set.of("acl", "delete", "lifecycle",
            "location", "logging", "notification", "partNumber", "policy", "requestPayment", "torrent", "uploadId",
            "uploads", "versionId", "versioning", "versions", "website", "response-content-type",
            "response-content-language", "response-expires", "response-cache-control",
            "response-content-disposition", "response-content-encoding");

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static byte[] hmacSha1(String secret, String data) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    "HmacSHA1"));
            return mac.doFinal(data.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private Authenticated verify(S3Request r, String credential, String amzDate, String signedHeaders,
                                 String signature, String payload, Map<String, String> query, boolean presigned) {
        String[] scopeParts = credential.split("/");
        if (scopeParts.length != 5 || !"aws4_request".equals(scopeParts[4]) || !"s3".equals(scopeParts[3])) {
            String service = scopeParts.length == 5 ? "; the service is " + scopeParts[3] + ", this endpoint is s3"
                    : "";
            throw presigned ? queryError("X-Amz-Credential must be <key>/<date>/<region>/s3/aws4_request" + service)
                    : malformed("the Credential must be <key>/<date>/<region>/s3/aws4_request" + service);
        }
        String accessKey = scopeParts[0];
        String secret = secrets.get(accessKey);
        if (secret == null) {
            throw new S3Exception(403, "InvalidAccessKeyId", "The AWS access key Id you provided does not exist in"
                    + " the gateway's records: " + accessKey);
        }
        if (!amzDate.startsWith(scopeParts[1])) {
            throw malformed("the credential scope's date " + scopeParts[1] + " is not the request's date "
                    + amzDate.substring(0, Math.min(8, amzDate.length())));
        }
        String scope = scopeParts[1] + "/" + scopeParts[2] + "/" + scopeParts[3] + "/" + scopeParts[4];
        List<String> headerNames = Arrays.asList(signedHeaders.toLowerCase(Locale.ROOT).split(";"));
        if (!headerNames.contains("host")) {
            throw malformed("SignedHeaders must include host");
        }
        for (String name : r.headers().keySet()) {
            // an x-amz-* header steers the request (x-amz-copy-source turns a PUT into a copy, x-amz-meta-* is
            // stored): one the client did not sign could have been added by anyone holding a presigned URL or
            // replaying a signed request, so S3 refuses it, and so does this
            if (name.startsWith("x-amz-") && !headerNames.contains(name) && !ADDED_BY_PROXIES.contains(name)) {
                throw new S3Exception(403, "AccessDenied", "There were headers present in the request which were"
                        + " not signed: " + name);
            }
        }
        byte[] key = SigV4.signingKey(secret, scopeParts[1], scopeParts[2], scopeParts[3]);
        String canonicalHeaders = canonicalHeaders(r, headerNames);
        String query1 = canonicalQuery(query);
        for (String uri : candidateUris(r)) {
            String canonical = r.method() + "\n" + uri + "\n" + query1 + "\n" + canonicalHeaders + "\n"
                    + String.join(";", headerNames) + "\n" + payload;
            String toSign = SigV4.ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + SigV4.sha256Hex(canonical);
            String expected = SigV4.hex(SigV4.hmac(key, toSign));
            if (SigV4.same(expected, signature.toLowerCase(Locale.ROOT))) {
                return new Authenticated(accessKey, payload, key, amzDate, scope, expected);
            }
        }
        throw new S3Exception(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the"
                + " signature you provided. Check your key and signing method.");
    }

    /** The canonical URI: the decoded path encoded as SigV4 says; the path as sent if the client encoded otherwise. */
    private static List<String> candidateUris(S3Request r) {
        String canonical = S3Request.uriEncode(S3Request.decode(r.rawPath()), true);
        return canonical.equals(r.rawPath()) ? List.of(canonical) : List.of(canonical, r.rawPath());
    }

    private static String canonicalHeaders(S3Request r, List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String name : names) {
            List<String> values = r.headers().get(name);
            if (values == null) {
                throw new S3Exception(403, "AccessDenied", "The signed header " + name + " is missing from the"
                        + " request");
            }
            List<String> trimmed = new ArrayList<>(values.size());
            for (String v : values) {
                trimmed.add(v.trim().replaceAll("\\s+", " "));
            }
            sb.append(name).append(':').append(String.join(",", trimmed)).append('\n');
        }
        return sb.toString();
    }

    private static String canonicalQuery(Map<String, String> query) {
        TreeMap<String, String> sorted = new TreeMap<>();
        query.forEach((k, v) -> sorted.put(S3Request.uriEncode(k, false), S3Request.uriEncode(v, false)));
        StringBuilder sb = new StringBuilder();
        sorted.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(k).append('=').append(v));
        return sb.toString();
    }

    private static Instant parseDate(String amzDate) {
        try {
            return LocalDateTime.parse(amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new S3Exception(403, "AccessDenied", "x-amz-date '" + amzDate + "' is not yyyyMMddTHHmmssZ");
        }
    }

    private static S3Exception malformed(String message) {
        return new S3Exception(400, "AuthorizationHeaderMalformed", "The authorization header is malformed: "
                + message);
    }

    private static S3Exception queryError(String message) {
        return new S3Exception(400, "AuthorizationQueryParametersError", message);
    }
}
