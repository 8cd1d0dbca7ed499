/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options that several providers share, under one name each, so that the same thing has the same word in every
 * store and driver: {@code connect-timeout} (never {@code connection-timeout}), {@code trust-store} and
 * {@code trust-store-password} (never {@code tls-truststore}), {@code retries}, {@code create-bucket}. A provider
 * takes them as they are or adjusts the doc or default ({@link Option#doc(String)},
 * {@link Option#defaultValue(Object)}). Immutable constants.
 */
public final class StandardOptions {
    /** {@code connect-timeout}: TCP (and TLS) connect timeout, positive; default 5 s. */
    public static final Option<Duration> CONNECT_TIMEOUT = Option.duration("connect-timeout", Duration.ofSeconds(5),
            "TCP (and TLS) connect timeout").positive();

    /** {@code retries}: retries of one request inside the client library, 0 to 10; default 0. */
    public static final Option<Integer> RETRIES = Option.integer("retries", 0,
            "SDK retries after a failed attempt (0-10); 0 lets Hybris fall back to another cloud at once")
            .between(0, 10, " (SDK retries per request; 0 lets Hybris fall back to another cloud at once)");

    /** {@code create-bucket}: create the bucket (container) at start-up if it is missing; default false. */
    public static final Option<Boolean> CREATE_BUCKET = Option.bool("create-bucket", false,
            "create the bucket at start-up if it is missing; with `false` a missing bucket is an error");

    /** {@code trust-store}: a PKCS#12 or JKS file with the CA certificates to trust; default the JDK's. */
    public static final Option<Path> TRUST_STORE = Option.path("trust-store",
            "PKCS#12 or JKS file with the CA certificate(s) of a TLS endpoint signed by a private CA")
            .defaultText("the JDK's CAs");

    /** {@code trust-store-password}: the trust store's password, a secret; default none. */
    public static final Option<String> TRUST_STORE_PASSWORD = Option.string("trust-store-password", null,
            "its password; a secret, best set through the environment (needs `trust-store`)");

    /**
     * {@code changes-retention}: how many commits each container's change log keeps (the change feed), positive;
     * default 20,000. A store bounds it further where its log's listing is limited.
     */
    public static final Option<Integer> CHANGES_RETENTION = Option.integer("changes-retention", 20_000,
            "commits each container's change log keeps for the change feed (`Hybris.changes`, `subscribe`); a"
                    + " cursor older than that gets `ChangeCursorExpiredException` and resyncs by listing").positive();

    private StandardOptions() {
    }
}
