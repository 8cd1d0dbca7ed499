/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataStoreException;
import org.kiwiproject.consul.ConsulException;
import org.kiwiproject.consul.model.kv.TxError;
import org.kiwiproject.consul.model.kv.TxResponse;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.Locale;

/**
 * How a {@link ConsulMetadataStore} classifies Consul's failures (transient or not) and words them: ACL denials
 * name the {@code token} option (never the token), size limits name Consul's settings. Immutable and thread-safe.
 */
final class ConsulErrors {
    private static final int MAX_DETAIL = 300;

    /** A status our caller does not handle, as {@link ConsulException} reports one for the consul-client calls. */
    static final class StatusException extends IOException {
        private static final long serialVersionUID = 1L;
        private final int code;
        private final String body;

        StatusException(int code, String body) {
            super("HTTP " + code + ": " + detail(body));
            this.code = code;
            this.body = body;
        }
    }

    private final ConsulSettings settings;
    private final String description;

    ConsulErrors(ConsulSettings settings, String description) {
        this.settings = settings;
        this.description = description;
    }

    /** Whether a failure is the calling thread's interrupt (not a timeout). */
    static boolean interrupted(Exception e) {
        Throwable t = e instanceof ConsulException && e.getCause() != null ? e.getCause() : e;
        return t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)
                && "interrupted".equals(t.getMessage());
    }

    /** The HTTP status of a failure, or -1 if no answer came (connection refused, reset, timed out). */
    static int status(Exception e) {
        if (e instanceof ConsulException c) {
            return c.hasCode() ? c.getCode() : -1;
        }
        if (e instanceof StatusException s) {
            return s.code;
        }
        return -1;
    }

    /** Whether a status (-1: no answer) is worth retrying. */
    static boolean isTransient(int status) {
        return status == -1 || status == 429 || status >= 500;
    }

    /** Maps a permanent failure to the exception the SPI promises. */
    MetadataStoreException failure(String operation, String what, int status, Exception e) {
        String prefix = operation + " of " + what + " on " + description;
        return switch (status) {
            case 401, 403 -> denied(operation, what, describe(status, e), e);
            case 413 -> new MetadataStoreException(prefix + " rejected as too large (" + describe(status, e)
                    + "): Consul limits one KV value to 512 KiB (limits.kv_max_value_size) and one transaction"
                    + " request to 512 KiB (limits.txn_max_req_len) by default", e);
            default -> new MetadataStoreException(prefix + " failed: " + describe(status, e), e);
        };
    }

    /** A request denied by the ACL. */
    MetadataStoreException denied(String operation, String what, String detail, Exception cause) {
        String tokenKey = settings.key("token");
        return new MetadataStoreException(operation + " of " + what + " on " + description
                + " denied by the Consul ACL (" + detail + "): this client "
                + (settings.token() != null ? "sends the token set in " + tokenKey
                : "sends no token (" + tokenKey + " is not set)")
                + "; use a token whose policy grants key read, write and list on " + settings.keyPrefix() + "/",
                cause);
    }

    /** Throws if a failed transaction was denied by the ACL. */
    void checkTransactionDenied(TxResponse response, String operation, String what) {
        for (TxError e : response.errors()) {
            String text = e.what().orElse("");
            if (text.toLowerCase(Locale.ROOT).contains("permission denied")) {
                throw denied(operation, what, "transaction error: " + text, null);
            }
        }
    }

    /** A failure for a message: "no answer: ..." or "HTTP status: body". */
    static String describe(int status, Exception e) {
        if (status == -1) {
            Throwable t = e instanceof ConsulException && e.getCause() != null ? e.getCause() : e;
            return "no answer: " + t;
        }
        if (e instanceof StatusException s) {
            return "HTTP " + status + ": " + detail(s.body);
        }
        String m = String.valueOf(e.getMessage());
        int at = m.indexOf("]: ");
        return "HTTP " + status + ": " + detail(at >= 0 ? m.substring(at + 3) : m);
    }

    /** A response body shortened for a message. */
    static String detail(String body) {
        String b = body == null ? "" : body.strip();
        return b.length() > MAX_DETAIL ? b.substring(0, MAX_DETAIL) + "..." : b;
    }
}
