/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.spi.KeyProvider;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The {@code hybris.crypto.*} properties:
 * <ul>
 *   <li>{@code hybris.crypto.mode}: {@code none} (default), {@code metadata} (data key in metadata, the paper's
 *       mode), {@code envelope} (data key wrapped by a key-encryption key);</li>
 *   <li>{@code hybris.crypto.kek.current}: the id of the KEK new versions are wrapped with (envelope);</li>
 *   <li>{@code hybris.crypto.kek.keystore} and {@code hybris.crypto.kek.keystore-password}: a PKCS#12 keystore
 *       whose secret-key entries are the KEKs (alias = id); or</li>
 *   <li>{@code hybris.crypto.kek.keys}: {@code id1:base64key,id2:base64key} — a secret, so give it as the
 *       environment variable {@code HYBRIS_CRYPTO_KEK_KEYS}.</li>
 * </ul>
 */
final class CryptoSettings {
    static final Set<String> KEYS = Set.of("hybris.crypto.mode", "hybris.crypto.kek.current",
            "hybris.crypto.kek.keystore", "hybris.crypto.kek.keystore-password", "hybris.crypto.kek.keys");

    private CryptoSettings() {
    }

    /** The key provider the properties describe, or null for no encryption. */
    static KeyProvider keyProvider(Map<String, String> props) {
        String mode = value(props, "hybris.crypto.mode");
        String current = value(props, "hybris.crypto.kek.current");
        String keystore = value(props, "hybris.crypto.kek.keystore");
        String password = value(props, "hybris.crypto.kek.keystore-password");
        String keys = value(props, "hybris.crypto.kek.keys");
        if (mode == null || mode.equals("none")) {
            if (current != null || keystore != null || keys != null) {
                throw new HybrisConfigurationException("hybris.crypto.kek.* is set but hybris.crypto.mode is "
                        + (mode == null ? "not set" : "none") + "; set hybris.crypto.mode=envelope to use the keys");
            }
            return null;
        }
        return switch (mode) {
            case "metadata" -> new MetadataKeyProvider();
            case "envelope" -> envelope(current, keystore, password, keys);
            default -> throw new HybrisConfigurationException("hybris.crypto.mode=" + mode
                    + " is unknown; use none, metadata or envelope");
        };
    }

    private static KeyProvider envelope(String current, String keystore, String password, String keys) {
        if (current == null) {
            throw new HybrisConfigurationException("hybris.crypto.mode=envelope needs hybris.crypto.kek.current,"
                    + " the id of the key-encryption key to wrap new data keys with");
        }
        if ((keystore == null) == (keys == null)) {
            throw new HybrisConfigurationException("hybris.crypto.mode=envelope needs exactly one source of"
                    + " key-encryption keys: hybris.crypto.kek.keystore (PKCS#12) or hybris.crypto.kek.keys"
                    + " (environment variable HYBRIS_CRYPTO_KEK_KEYS=id:base64key,...)");
        }
        try {
            if (keystore != null) {
                if (password == null) {
                    throw new HybrisConfigurationException("hybris.crypto.kek.keystore needs"
                            + " hybris.crypto.kek.keystore-password (environment variable"
                            + " HYBRIS_CRYPTO_KEK_KEYSTORE_PASSWORD)");
                }
                return EnvelopeKeyProvider.fromKeyStore(Path.of(keystore), password.toCharArray(), current);
            }
            return EnvelopeKeyProvider.fromEncoded(keys, current);
        } catch (HybrisConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new HybrisConfigurationException("hybris.crypto: " + e.getMessage(), e);
        }
    }

    private static String value(Map<String, String> props, String key) {
        String v = props.get(key);
        return v == null || v.isBlank() ? null : v.trim();
    }
}
