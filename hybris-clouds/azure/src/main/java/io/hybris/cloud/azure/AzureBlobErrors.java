/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;

import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.TimeoutException;

/**
 * Maps what the Azure SDK throws to Hybris's {@link CloudStoreException}s, keeping the service's status code, error
 * code and message: 401/403 (bad key, expired SAS, no permission) and a missing container are
 * {@link PermanentCloudException}; 408, 409, 429, 5xx, timeouts and I/O failures are {@link TransientCloudException};
 * other 4xx and an untrusted TLS certificate are permanent (the request itself is wrong). An interrupted call becomes a transient exception and the
 * thread's interrupt flag is set again. Stateless.
 */
final class AzureBlobErrors {
    /** Exceptions that only carry their cause; left out of messages. */
    private static final java.util.Set<String> WRAPPERS = java.util.Set.of("RuntimeException", "ReactiveException",
            "UncheckedIOException", "CompletionException", "ExecutionException");
    private static final Pattern XML_MESSAGE = Pattern.compile("<Message>(.*?)</Message>", Pattern.DOTALL);

    private final AzureBlobSettings settings;

    AzureBlobErrors(AzureBlobSettings settings) {
        this.settings = settings;
    }

    /** True if {@code e} is the service saying the blob (not the container) does not exist. */
    static boolean isBlobNotFound(RuntimeException e) {
        return e instanceof BlobStorageException b && b.getStatusCode() == 404
                && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(b.getErrorCode());
    }

    /** True if {@code e} is the service saying the requested range is past the end (an empty blob). */
    static boolean isInvalidRange(RuntimeException e) {
        return e instanceof BlobStorageException b && b.getStatusCode() == 416;
    }

    /** The exception to throw for an operation that failed with {@code e}. */
    CloudStoreException map(String what, RuntimeException e) {
        if (e instanceof CloudStoreException c) {
            return c;
        }
        if (Thread.currentThread().isInterrupted() || causedByInterrupt(e)) {
            Thread.currentThread().interrupt();
            return new TransientCloudException(settings.cloudId(), what + " interrupted; its request was abandoned",
                    e);
        }
        if (e instanceof HttpResponseException h) {
            return fromStatus(what, h);
        }
        String detail = describe(e);
        if (hasCause(e, javax.net.ssl.SSLHandshakeException.class)
                || hasCause(e, javax.net.ssl.SSLPeerUnverifiedException.class)
                || hasCause(e, java.security.cert.CertificateException.class)) {
            return new PermanentCloudException(settings.cloudId(), what + " failed: the TLS certificate of "
                    + settings.endpointForMessages() + " is not trusted (if it comes from a private CA, give a trust"
                    + " store in " + settings.key("trust-store") + "): " + detail, e);
        }
        if (hasCause(e, TimeoutException.class) || hasCause(e, java.net.http.HttpTimeoutException.class)) {
            return new TransientCloudException(settings.cloudId(), what + " timed out (" + settings.key("request-timeout")
                    + "=" + settings.requestTimeout() + ", " + settings.key("connect-timeout") + "="
                    + settings.connectTimeout() + "): " + detail, e);
        }
        return new TransientCloudException(settings.cloudId(), what + " failed at " + settings.describeLocation()
                + ": " + detail, e);
    }

    private CloudStoreException fromStatus(String what, HttpResponseException h) {
        int status = h.getResponse() == null ? 0 : h.getResponse().getStatusCode();
        String code = h instanceof BlobStorageException b && b.getErrorCode() != null ? b.getErrorCode().toString()
                : null;
        String service = serviceMessage(h);
        String reported = "HTTP " + status + (code == null ? "" : " " + code) + (service.isEmpty() ? "" : ": " + service);
        String id = settings.cloudId();
        if (status == 404 && (code == null || BlobErrorCode.CONTAINER_NOT_FOUND.toString().equals(code))) {
            return new PermanentCloudException(id, what + " failed: container '" + settings.container()
                    + "' does not exist at " + settings.endpointForMessages() + "; create it or set "
                    + settings.key("create-bucket") + "=true (" + reported + ")", h);
        }
        if (status == 401 || status == 403) {
            return new PermanentCloudException(id, what + " was refused (" + reported + "): check the credentials ("
                    + settings.credentials().describe() + ") and their permissions on " + settings.describeLocation(),
                    h);
        }
        if (status == 408 || status == 409 || status == 429 || status >= 500 || status == 0) {
            return new TransientCloudException(id, what + " failed (" + reported + ")", h);
        }
        return new PermanentCloudException(id, what + " was rejected (" + reported + ")", h);
    }

    private static String serviceMessage(HttpResponseException h) {
        String m = h instanceof BlobStorageException b ? b.getServiceMessage() : null;
        if (m == null || m.isBlank()) {
            m = h.getMessage();
        }
        if (m == null) {
            return "";
        }
        // The SDK's message wraps the service's XML error (and, for 403, a long hint about string-to-sign
        // logging); keep the service's own <Message>, which names the cause and the request id.
        Matcher xml = XML_MESSAGE.matcher(m);
        if (xml.find()) {
            m = xml.group(1);
        }
        return m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    private static String describe(Throwable e) {
        List<String> parts = new ArrayList<>();
        Throwable t = e;
        for (int depth = 0; t != null && depth < 6; depth++, t = t.getCause()) {
            Throwable cause = t.getCause();
            String message = t.getMessage() == null ? "" : t.getMessage().strip();
            boolean redundant = cause != null && (message.isEmpty() || message.equals(cause.toString()));
            boolean genericWrapper = redundant && WRAPPERS.contains(t.getClass().getSimpleName());
            String part = t.getClass().getSimpleName() + (redundant || message.isEmpty() ? "" : ": " + message);
            if (!genericWrapper && (parts.isEmpty() || !parts.get(parts.size() - 1).equals(part))) {
                parts.add(part);
            }
            if (cause == t) {
                break;
            }
        }
        return parts.isEmpty() ? e.getClass().getSimpleName() : String.join(" <- ", parts);
    }

    private static boolean causedByInterrupt(Throwable e) {
        return hasCause(e, InterruptedException.class) || hasCause(e, ClosedByInterruptException.class)
                || (hasCause(e, InterruptedIOException.class) && !hasCause(e, java.net.SocketTimeoutException.class)
                && !hasCause(e, java.net.http.HttpTimeoutException.class));
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        Throwable t = e;
        for (int depth = 0; t != null && depth < 10; depth++, t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (type.isInstance(s)) {
                    return true;
                }
            }
        }
        return false;
    }
}
