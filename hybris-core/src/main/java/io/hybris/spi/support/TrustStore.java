/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;

/**
 * The CA certificates a driver trusts for TLS: a PKCS#12 or JKS file from the {@code trust-store} option, or the
 * JDK's default CAs. Loading errors are {@link HybrisConfigurationException}s that name the option keys, never the
 * password.
 *
 * <pre>{@code
 * TrustStore trust = TrustStore.load(path, password, "hybris.cloud.aws.trust-store",
 *         "hybris.cloud.aws.trust-store-password");
 * httpClientBuilder.sslContext(trust.sslContext());
 * }</pre>
 * Immutable and thread-safe.
 */
public final class TrustStore {
    private final KeyStore keyStore;
    private final X509TrustManager trustManager;
    private final String key;

    private TrustStore(KeyStore keyStore, X509TrustManager trustManager, String key) {
        this.keyStore = keyStore;
        this.trustManager = trustManager;
        this.key = key;
    }

    /**
     * Loads a trust store file (PKCS#12 or JKS, detected from the content).
     *
     * @param file        the file
     * @param password    its password, or null for none
     * @param fileKey     the full property key of the file option, for messages
     * @param passwordKey the full property key of the password option, for messages
     * @throws HybrisConfigurationException if the file is not readable or not a trust store (or the password is wrong)
     */
    public static TrustStore load(Path file, String password, String fileKey, String passwordKey) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new HybrisConfigurationException(fileKey + "=" + file + " is not a readable file: give a PKCS#12"
                    + " or JKS trust store holding the endpoint's CA certificate");
        }
        KeyStore store;
        try {
            store = KeyStore.getInstance(file.toFile(), password == null ? null : password.toCharArray());
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new HybrisConfigurationException(fileKey + "=" + file + " cannot be loaded as a PKCS#12 or JKS"
                    + " trust store (" + e.getMessage() + "); check the file and " + passwordKey, e);
        }
        return new TrustStore(store, trustManager(store, fileKey), fileKey);
    }

    /**
     * {@link #load} when {@code file} is present, else empty; a password without a file is an error.
     *
     * @throws HybrisConfigurationException as {@link #load}, or if only the password is set
     */
    public static Optional<TrustStore> loadIfSet(Optional<Path> file, Optional<String> password, String fileKey,
                                                 String passwordKey) {
        if (file.isEmpty()) {
            if (password.isPresent()) {
                throw new HybrisConfigurationException(passwordKey + " is set but " + fileKey + " is not");
            }
            return Optional.empty();
        }
        return Optional.of(load(file.get(), password.orElse(null), fileKey, passwordKey));
    }

    /**
     * The JDK's default CAs.
     *
     * @param key the property key that turned TLS on, for messages
     */
    public static TrustStore jdkDefault(String key) {
        return new TrustStore(null, trustManager(null, key), key);
    }

    /** The loaded key store, or empty for the JDK's default CAs. */
    public Optional<KeyStore> keyStore() {
        return Optional.ofNullable(keyStore);
    }

    /** The X.509 trust manager over these CAs. */
    public X509TrustManager trustManager() {
        return trustManager;
    }

    /** {@link #trustManager()} as the array JSSE APIs take. */
    public TrustManager[] trustManagers() {
        return new TrustManager[] {trustManager};
    }

    /** A new TLS context that trusts these CAs (and uses no client certificate). */
    public SSLContext sslContext() {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, trustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new HybrisConfigurationException("cannot set up TLS for " + key + ": " + e.getMessage(), e);
        }
    }

    private static X509TrustManager trustManager(KeyStore store, String key) {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    return x;
                }
            }
        } catch (GeneralSecurityException e) {
            throw new HybrisConfigurationException("cannot set up TLS trust for " + key + ": " + e.getMessage(), e);
        }
        throw new HybrisConfigurationException("the JDK offers no X.509 trust manager for " + key);
    }
}
