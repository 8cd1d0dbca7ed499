/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.google.api.client.http.HttpResponseException;
import com.google.auth.Retryable;
import com.google.cloud.BaseServiceException;
import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Maps what the GCS SDK throws to Hybris's {@link TransientCloudException} / {@link PermanentCloudException},
 * keeping the service's status code and message. Stateless.
 *
 * <ul>
 *   <li>401, 403, other 4xx (bad request, payload too large, ...), rejected credentials (the OAuth token
 *       endpoint refusing the key) and an untrusted TLS certificate are permanent;</li>
 *   <li>408, 429, 5xx, I/O errors (code 0: connection refused, reset, timeout) are transient;</li>
 *   <li>404 is decided by the caller: "no such object" is not an error, a missing bucket is permanent.</li>
 * </ul>
 */
final class GcsErrors {
    /** The service's own words for a missing bucket; object and bucket names (and URLs) never hold a space. */
    private static final Pattern MISSING_BUCKET = Pattern.compile("bucket\\s+(does\\s+not\\s+exist|not\\s+found)");

    private final String cloudId;
    private final String bucket;

    GcsErrors(String cloudId, String bucket) {
        this.cloudId = cloudId;
        this.bucket = bucket;
    }

    /** The HTTP status of a failure, 0 for I/O errors or anything that is not a service error. */
    static int status(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BaseServiceException se && se.getCode() != BaseServiceException.UNKNOWN_CODE) {
                return se.getCode();
            }
            if (c instanceof HttpResponseException he) {
                return he.getStatusCode();
            }
        }
        return 0;
    }

    /**
     * True if a 404 is about the bucket rather than the object: the service says so in words ("The specified bucket
     * does not exist."). The SDK's message for a failed download also holds its status line ("404 Not Found") and
     * the request URL, i.e. the bucket and object names, so looking for "bucket" and "not found" anywhere in it took
     * every missing object of a bucket (or key) named with "bucket" for a missing bucket; names hold no spaces, so
     * the phrase can only come from the service's text.
     */
    static boolean isMissingBucket(Throwable t) {
        if (status(t) != 404) {
            return false;
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (MISSING_BUCKET.matcher(String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT)).find()) {
                return true;
            }
        }
        return false;
    }

    /** True if the failure was interruption of the calling thread. */
    static boolean isInterruption(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InterruptedException || c instanceof ClosedByInterruptException
                    || (c instanceof InterruptedIOException && !(c instanceof java.net.SocketTimeoutException))) {
                return true;
            }
        }
        return false;
    }

    /** The exception for a failed operation on an object (or prefix) {@code key}. */
    CloudStoreException map(String operation, String key, Throwable t) {
        String what = operation + " of '" + key + "' in bucket '" + bucket + "'";
        if (t instanceof CloudStoreException c) {
            return c;
        }
        if (isInterruption(t)) {
            return new TransientCloudException(cloudId, what + " interrupted: " + t, t);
        }
        if (isCredentialFailure(t)) {
            return new PermanentCloudException(cloudId, what + " failed: the credentials were rejected when "
                    + "fetching an access token (check the service account key and that it is not disabled or "
                    + "deleted): " + describe(t), t);
        }
        if (isUntrustedCertificate(t)) {
            return new PermanentCloudException(cloudId, what + " failed: the endpoint's TLS certificate is not "
                    + "trusted; set trust-store to a trust store with its CA: " + describe(t), t);
        }
        int status = status(t);
        if (status == 401 || status == 403) {
            return new PermanentCloudException(cloudId, what + " denied (HTTP " + status + "): " + describe(t)
                    + "; check the credentials and that they may read, write, list and delete objects in bucket '"
                    + bucket + "'", t);
        }
        if (status == 404 && isMissingBucket(t)) {
            return missingBucket(t);
        }
        if (status == 0 || status == 408 || status == 429 || status >= 500) {
            return new TransientCloudException(cloudId, what + " failed" + (status == 0 ? "" : " (HTTP " + status
                    + ")") + ": " + describe(t), t);
        }
        return new PermanentCloudException(cloudId, what + " failed (HTTP " + status + "): " + describe(t), t);
    }

    /** The exception for a bucket that does not exist. */
    PermanentCloudException missingBucket(Throwable cause) {
        return new PermanentCloudException(cloudId, "bucket '" + bucket + "' does not exist"
                + (cause == null ? "" : " (" + describe(cause) + ")")
                + "; create it, or set create-bucket=true to let Hybris create it at start-up", cause);
    }

    private static boolean isUntrustedCertificate(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof java.security.cert.CertificateException
                    || c instanceof java.security.cert.CertPathValidatorException
                    || c instanceof java.security.cert.CertPathBuilderException) {
                return true;
            }
        }
        return false;
    }

    private static boolean isCredentialFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            // the auth library's GoogleAuthException (package-private) is Retryable; a non-retryable one is a
            // rejection by the token endpoint (invalid_grant, invalid key, account disabled)
            if (c instanceof Retryable r && c instanceof java.io.IOException) {
                return !r.isRetryable();
            }
            // a fixed access token (no refresh possible) that the server refused with 401
            if (c instanceof IllegalStateException && String.valueOf(c.getMessage()).contains("refreshing the access")) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null && sb.length() < 600; c = c.getCause()) {
            String m = c.getMessage();
            if (m == null || m.isBlank() || sb.indexOf(m.strip()) >= 0) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append("; caused by ");
            }
            sb.append(c.getClass().getSimpleName()).append(": ").append(m.strip());
            // the service's own explanation is in the body; the SDK does not always parse it into the message
            if (c instanceof HttpResponseException he && he.getContent() != null && !he.getContent().isBlank()
                    && !m.contains(he.getContent().strip())) {
                String body = he.getContent().strip();
                sb.append(" [response: ").append(body, 0, Math.min(body.length(), 400)).append(']');
            }
        }
        return sb.length() == 0 ? t.getClass().getName() : sb.toString();
    }
}
