/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Set;

/**
 * Maps the SDK's exceptions to Hybris's: missing bucket, 401/403 and other client errors are permanent; 5xx,
 * 408, 429, throttling, timeouts and I/O failures are transient. Each message keeps the status code, S3's error
 * code and message, and says what to check.
 */
final class S3Errors {
    /** S3 error codes that are worth retrying even though their status is 4xx. */
    private static final Set<String> TRANSIENT_CODES = Set.of("RequestTimeout", "SlowDown", "Throttling",
            "ThrottlingException", "RequestThrottled", "TooManyRequests", "OperationAborted", "InternalError",
            "ServiceUnavailable", "XMinioServerNotInitialized");

    private final S3Settings settings;

    S3Errors(S3Settings settings) {
        this.settings = settings;
    }

    /** The HTTP status of a service error, or 0 for client-side failures. */
    static int status(SdkException e) {
        return e instanceof AwsServiceException s ? s.statusCode() : 0;
    }

    /** S3's error code of a service error (e.g. {@code NoSuchKey}), or "" if the response had no body. */
    static String code(SdkException e) {
        if (e instanceof AwsServiceException s) {
            AwsErrorDetails d = s.awsErrorDetails();
            if (d != null && d.errorCode() != null) {
                return d.errorCode();
            }
        }
        return "";
    }

    /** Whether S3 said the bucket does not exist. */
    static boolean isMissingBucket(SdkException e) {
        return "NoSuchBucket".equals(code(e));
    }

    /**
     * The Hybris exception for a failed request.
     *
     * @param what the operation, e.g. {@code put of 'a/b#1_c'}
     * @param inFlight the operation's requests; if it was aborted, the failure is the abort's consequence
     */
    CloudStoreException map(String what, SdkException e, InFlight inFlight) {
        String id = settings.cloudId();
        if (inFlight != null && inFlight.isAborted() || e instanceof AbortedException) {
            return new TransientCloudException(id, what + " aborted (interrupted): " + describe(e), e);
        }
        if (e instanceof AwsServiceException s) {
            return mapService(what, s);
        }
        if (e instanceof ApiCallAttemptTimeoutException || e instanceof ApiCallTimeoutException) {
            return new TransientCloudException(id, what + " on " + settings.describeLocation()
                    + " timed out after " + settings.key("request-timeout") + "=" + settings.requestTimeout()
                    + ": " + describe(e), e);
        }
        if (e instanceof SdkClientException && !hasCause(e, IOException.class)
                && e.getMessage() != null && e.getMessage().contains("credentials")) {
            return new PermanentCloudException(id, what + " failed: no usable credentials (" + describe(e)
                    + "); set " + settings.key("access-key") + " and " + settings.key("secret-key")
                    + " or configure the AWS default credentials provider chain", e);
        }
        if (hasCause(e, CertificateException.class) || hasCause(e, CertPathValidatorException.class)) {
            return new PermanentCloudException(id, what + " on " + settings.describeLocation() + " failed: the"
                    + " server's TLS certificate is not trusted (" + describe(e) + "); give its CA in "
                    + settings.key("trust-store") + " or check " + settings.key("endpoint"), e);
        }
        String kind = hasCause(e, InterruptedIOException.class) ? "timed out" : "failed";
        return new TransientCloudException(id, what + " on " + settings.describeLocation() + " " + kind + ": "
                + describe(e), e);
    }

    /** The exception for a missing bucket, naming it and the two ways to fix it. */
    PermanentCloudException missingBucket(String what, Exception cause) {
        return new PermanentCloudException(settings.cloudId(), what + " failed: bucket '" + settings.bucket()
                + "' does not exist" + settings.endpoint().map(u -> " at " + u).orElse(" in " + settings.region())
                + (cause == null ? "" : " (" + describe(cause) + ")") + "; create it, or set "
                + settings.key("create-bucket") + "=true to let Hybris create it at start-up", cause);
    }

    private CloudStoreException mapService(String what, AwsServiceException e) {
        String id = settings.cloudId();
        int status = e.statusCode();
        String code = code(e);
        if (isMissingBucket(e)) {
            return missingBucket(what, e);
        }
        if (status == 401 || status == 403) {
            String hint = "RequestTimeTooSkewed".equals(code)
                    ? "; this machine's clock differs too much from the server's: synchronise it"
                    : "; check " + settings.key("access-key") + "/" + settings.key("secret-key")
                    + " (or the default credentials chain) and the bucket's access policy";
            return new PermanentCloudException(id, what + " on " + settings.describeLocation() + " was denied: "
                    + describe(e) + hint, e);
        }
        if (status == 301 || status == 307 || "AuthorizationHeaderMalformed".equals(code)
                || "PermanentRedirect".equals(code)) {
            return new PermanentCloudException(id, what + " on " + settings.describeLocation() + " failed: "
                    + describe(e) + "; the bucket is probably in another region: set " + settings.key("region")
                    + " (or " + settings.key("endpoint") + ") to the bucket's", e);
        }
        if (status >= 500 || status == 408 || status == 429 || TRANSIENT_CODES.contains(code)
                || e.isThrottlingException()) {
            return new TransientCloudException(id, what + " on " + settings.describeLocation() + " failed: "
                    + describe(e), e);
        }
        return new PermanentCloudException(id, what + " on " + settings.describeLocation() + " was rejected: "
                + describe(e), e);
    }

    /** "HTTP 403 InvalidAccessKeyId: The Access Key Id ... (request id 123)" or the client failure. */
    static String describe(Throwable e) {
        if (e instanceof AwsServiceException s) {
            AwsErrorDetails d = s.awsErrorDetails();
            StringBuilder b = new StringBuilder("HTTP ").append(s.statusCode());
            String code = code(s);
            if (!code.isEmpty()) {
                b.append(' ').append(code);
            }
            String message = d != null && d.errorMessage() != null ? d.errorMessage() : s.getMessage();
            if (message != null && !message.isBlank()) {
                b.append(": ").append(message);
            }
            if (s.requestId() != null) {
                b.append(" (request id ").append(s.requestId()).append(')');
            }
            return b.toString();
        }
        StringBuilder b = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            b.append(": ").append(e.getMessage());
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e && root.getMessage() != null && (e.getMessage() == null
                || !e.getMessage().contains(root.getMessage()))) {
            b.append(" (").append(root.getClass().getSimpleName()).append(": ").append(root.getMessage()).append(')');
        }
        return b.toString();
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
