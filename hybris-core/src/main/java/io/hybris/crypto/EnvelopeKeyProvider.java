/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.CryptoException;
import io.hybris.DecryptionFailedException;
import io.hybris.HybrisConfigurationException;
import io.hybris.KeyUnavailableException;
import io.hybris.spi.KeyProvider;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.UnrecoverableKeyException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Envelope key custody ({@code hybris.crypto.mode=envelope}): each data key is wrapped with AES-256-GCM under a
 * key-encryption key (KEK) that never enters the metadata store or a cloud; the metadata holds only the wrapped
 * key and the KEK's id. Several KEKs can be configured so that values wrapped under older KEKs stay readable while
 * new versions use the current one (rotation: add the new KEK, switch the current id, re-wrap, then drop the old).
 *
 * <pre>{@code
 * // from a PKCS#12 keystore: every secret-key entry is a KEK, its alias the KEK id
 * EnvelopeKeyProvider keys = EnvelopeKeyProvider.fromKeyStore(Path.of("keks.p12"), password, "kek-2026");
 * // or from an environment variable holding "id1:base64key1,id2:base64key2"
 * EnvelopeKeyProvider keys = EnvelopeKeyProvider.fromEncoded(System.getenv("HYBRIS_KEKS"), "kek-2026");
 *
 * byte[] wrapped = keys.wrap(keys.currentKeyId(), dataKey);   // 60 bytes, stored in metadata with the id
 * byte[] dataKey2 = keys.unwrap("kek-2026", wrapped);
 * }</pre>
 *
 * <h2>Wrapped format</h2>
 * {@code nonce (12 random bytes) || AES-256-GCM ciphertext of the data key || tag (16 bytes)}, with additional
 * authenticated data {@code UTF-8("hybris-kek:" + keyId)}, so a wrapped key presented under another KEK id fails
 * to unwrap. A 32-byte data key wraps to {@value #WRAPPED_KEY_BYTES} bytes.
 *
 * <h2>Key ids</h2>
 * 1 to 64 of {@code A-Z a-z 0-9 . _ -}. The JDK's PKCS#12 keystore reports aliases in lower case, so keys loaded
 * with {@link #fromKeyStore} have lower-case ids; use lower-case ids everywhere if KEKs move between keystores and
 * environment variables.
 *
 * <h2>Errors</h2>
 * Factories throw {@link HybrisConfigurationException} naming the KEK id, the entry position or the file, never
 * key material. {@link #unwrap} throws {@link KeyUnavailableException} for an id that is not configured and
 * {@link DecryptionFailedException} when the wrapped key does not authenticate. {@link #toString()} lists ids
 * only.
 *
 * <p>Immutable and thread-safe: every call uses its own {@link Cipher}. Arguments must not be {@code null}.
 */
public final class EnvelopeKeyProvider implements KeyProvider {
    /** Length of a wrapped {@value ValueCipher#DATA_KEY_BYTES}-byte data key: nonce, ciphertext and tag. */
    public static final int WRAPPED_KEY_BYTES = 12 + ValueCipher.DATA_KEY_BYTES + 16;

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final int KEK_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, SecretKey> keks;
    private final String currentKeyId;

    private EnvelopeKeyProvider(Map<String, SecretKey> keks, String currentKeyId) {
        this.keks = keks;
        this.currentKeyId = currentKeyId;
    }

    /**
     * A provider with the given KEKs; the map is copied.
     *
     * @param keks         KEK id to 256-bit AES key
     * @param currentKeyId the id new data keys are wrapped with; must be a key of {@code keks}
     * @throws HybrisConfigurationException if an id is invalid, a key is not a 256-bit AES key, or
     *                                      {@code currentKeyId} is not among the ids
     */
    public static EnvelopeKeyProvider of(Map<String, ? extends SecretKey> keks, String currentKeyId) {
        Objects.requireNonNull(keks, "keks");
        Objects.requireNonNull(currentKeyId, "currentKeyId");
        Map<String, SecretKey> copy = new TreeMap<>();
        for (Map.Entry<String, ? extends SecretKey> e : keks.entrySet()) {
            String id = Objects.requireNonNull(e.getKey(), "KEK id");
            SecretKey key = Objects.requireNonNull(e.getValue(), () -> "KEK '" + id + "'");
            checkId(id, "KEK id '" + id + "'");
            copy.put(id, copyKey(id, key, ""));
        }
        return create(copy, currentKeyId, "");
    }

    /**
     * Loads every secret-key entry of a PKCS#12 keystore as a KEK: the alias is the KEK id, and each entry is
     * protected by the store password. Other entries (private keys, certificates) are ignored.
     *
     * <p>Create one with, for example,
     * {@code keytool -genseckey -keyalg AES -keysize 256 -alias kek-2026 -storetype PKCS12 -keystore keks.p12}.
     *
     * @throws HybrisConfigurationException if the file is missing or unreadable, the password is wrong, an entry
     *                                      is not a 256-bit AES key or has an invalid alias, or there is no entry
     *                                      {@code currentKeyId}
     */
    public static EnvelopeKeyProvider fromKeyStore(Path pkcs12, char[] password, String currentKeyId) {
        Objects.requireNonNull(pkcs12, "pkcs12");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(currentKeyId, "currentKeyId");
        String where = " in KEK keystore " + pkcs12;
        KeyStore store;
        try (InputStream in = Files.newInputStream(pkcs12)) {
            store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
        } catch (NoSuchFileException e) {
            throw new HybrisConfigurationException("KEK keystore " + pkcs12 + " does not exist");
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new HybrisConfigurationException("wrong password for KEK keystore " + pkcs12
                        + " (or the file is corrupted)", e);
            }
            throw new HybrisConfigurationException("cannot read KEK keystore " + pkcs12
                    + " as PKCS#12: " + e, e);
        } catch (GeneralSecurityException e) {
            throw new HybrisConfigurationException("cannot load KEK keystore " + pkcs12 + ": " + e, e);
        }

        Map<String, SecretKey> keks = new TreeMap<>();
        KeyStore.PasswordProtection protection = new KeyStore.PasswordProtection(password);
        try {
            for (Enumeration<String> aliases = store.aliases(); aliases.hasMoreElements(); ) {
                String alias = aliases.nextElement();
                if (!store.entryInstanceOf(alias, KeyStore.SecretKeyEntry.class)) {
                    continue;
                }
                checkId(alias, "keystore alias '" + alias + "'" + where);
                KeyStore.Entry entry;
                try {
                    entry = store.getEntry(alias, protection);
                } catch (UnrecoverableKeyException e) {
                    throw new HybrisConfigurationException("cannot recover KEK '" + alias + "'" + where
                            + " with the keystore password: every KEK entry must use the store password", e);
                }
                keks.put(alias, copyKey(alias, ((KeyStore.SecretKeyEntry) entry).getSecretKey(), where));
            }
        } catch (GeneralSecurityException e) {
            throw new HybrisConfigurationException("cannot read the entries" + where + ": " + e, e);
        } finally {
            try {
                protection.destroy();
            } catch (javax.security.auth.DestroyFailedException ignored) {
                // the password copy stays for the garbage collector; nothing else to do
            }
        }
        if (keks.isEmpty()) {
            throw new HybrisConfigurationException("KEK keystore " + pkcs12 + " has no secret-key entries; add one"
                    + " with keytool -genseckey -keyalg AES -keysize 256 -storetype PKCS12 -alias " + currentKeyId);
        }
        if (!keks.containsKey(currentKeyId) && keks.containsKey(currentKeyId.toLowerCase(Locale.ROOT))) {
            throw new HybrisConfigurationException("KEK keystore " + pkcs12 + " has no entry '" + currentKeyId
                    + "' but has '" + currentKeyId.toLowerCase(Locale.ROOT) + "': PKCS#12 aliases are lower case,"
                    + " use the lower-case id");
        }
        return create(keks, currentKeyId, where);
    }

    /**
     * Parses KEKs from a string such as an environment variable: {@code id1:base64key1,id2:base64key2}, where
     * each key is 32 bytes in standard or URL-safe base64 (44 characters with padding). Spaces around entries
     * are ignored. Errors name the entry's position and id but never echo key material.
     *
     * @throws HybrisConfigurationException if the spec is empty or malformed, an id is invalid or repeated, a key
     *                                      is not valid base64 or not 32 bytes, or {@code currentKeyId} is absent
     */
    public static EnvelopeKeyProvider fromEncoded(String spec, String currentKeyId) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(currentKeyId, "currentKeyId");
        if (spec.isBlank()) {
            throw new HybrisConfigurationException("the KEK list is empty: expected id1:base64key1,id2:base64key2");
        }
        Map<String, SecretKey> keks = new TreeMap<>();
        String[] entries = spec.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            String position = "KEK list entry " + (i + 1) + " of " + entries.length;
            if (entry.isEmpty()) {
                throw new HybrisConfigurationException(position + " is empty (expected id:base64key)");
            }
            int colon = entry.indexOf(':');
            if (colon < 0) {
                throw new HybrisConfigurationException(position + " has no ':' (expected id:base64key)");
            }
            String id = entry.substring(0, colon).strip();
            if (!KEY_ID.matcher(id).matches()) {
                // the text may be key material pasted in the wrong place: do not echo it
                throw new HybrisConfigurationException(position + " has an invalid KEK id of " + id.length()
                        + " characters: use 1-64 of A-Z a-z 0-9 . _ -");
            }
            if (keks.containsKey(id)) {
                throw new HybrisConfigurationException(position + ": KEK id '" + id + "' appears more than once");
            }
            String encoded = entry.substring(colon + 1).strip();
            byte[] raw;
            try {
                raw = (encoded.indexOf('-') >= 0 || encoded.indexOf('_') >= 0
                        ? java.util.Base64.getUrlDecoder() : java.util.Base64.getDecoder()).decode(encoded);
            } catch (IllegalArgumentException e) {
                // the decoder's message quotes the offending character: leave it out
                throw new HybrisConfigurationException(position + " (KEK '" + id + "') is not valid base64");
            }
            try {
                if (raw.length != KEK_BYTES) {
                    throw new HybrisConfigurationException(position + " (KEK '" + id + "') decodes to " + raw.length
                            + " bytes; a KEK is a 256-bit AES key: 32 bytes, 44 base64 characters");
                }
                keks.put(id, new SecretKeySpec(raw, "AES"));
            } finally {
                Arrays.fill(raw, (byte) 0);
            }
        }
        return create(keks, currentKeyId, " in the KEK list");
    }

    /** A fresh random 256-bit AES key, for tests and tooling (e.g. to print as base64 for an environment variable). */
    public static SecretKey generateKek() {
        try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(KEK_BYTES * 8, RANDOM);
            return generator.generateKey();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks AES", e);
        }
    }

    /** The configured KEK ids, sorted; unmodifiable. */
    public Set<String> keyIds() {
        return Collections.unmodifiableSet(keks.keySet());
    }

    /**
     * The same KEKs with another current one, for rotation: new versions are wrapped under {@code id}, values
     * wrapped under the others stay readable.
     *
     * @throws HybrisConfigurationException if {@code id} is not configured
     */
    public EnvelopeKeyProvider withCurrentKey(String id) {
        Objects.requireNonNull(id, "id");
        if (!keks.containsKey(id)) {
            throw new HybrisConfigurationException("cannot make '" + id + "' the current KEK: it is not configured"
                    + " (configured: " + keks.keySet() + ")");
        }
        return new EnvelopeKeyProvider(keks, id);
    }

    @Override
    public String currentKeyId() {
        return currentKeyId;
    }

    /**
     * Wraps {@code dataKey} under KEK {@code keyId} with a fresh random nonce.
     *
     * @return {@value #WRAPPED_KEY_BYTES} bytes: nonce, ciphertext, tag
     * @throws KeyUnavailableException  if no KEK has that id
     * @throws IllegalArgumentException if {@code dataKey} is not {@value ValueCipher#DATA_KEY_BYTES} bytes
     */
    @Override
    public byte[] wrap(String keyId, byte[] dataKey) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(dataKey, "dataKey");
        SecretKey kek = kek(keyId);
        if (dataKey.length != ValueCipher.DATA_KEY_BYTES) {
            throw new IllegalArgumentException("data key has " + dataKey.length + " bytes, expected "
                    + ValueCipher.DATA_KEY_BYTES);
        }
        byte[] out = new byte[WRAPPED_KEY_BYTES];
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.ENCRYPT_MODE, kek, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(aad(keyId));
            cipher.doFinal(dataKey, 0, dataKey.length, out, NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("wrapping a data key under KEK '" + keyId + "' failed: " + e, e);
        }
        return out;
    }

    /**
     * Unwraps a data key wrapped by {@link #wrap} under KEK {@code keyId}.
     *
     * @throws KeyUnavailableException   if no KEK has that id (the message names it and the configured ids)
     * @throws DecryptionFailedException if {@code wrapped} does not authenticate under that KEK: another KEK with
     *                                   the same id, a wrapped key or id altered in metadata
     */
    @Override
    public byte[] unwrap(String keyId, byte[] wrapped) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(wrapped, "wrapped");
        SecretKey kek = kek(keyId);
        if (wrapped.length != WRAPPED_KEY_BYTES) {
            throw new DecryptionFailedException("wrapped data key under KEK '" + keyId + "' has " + wrapped.length
                    + " bytes, expected " + WRAPPED_KEY_BYTES + ": corrupted in metadata");
        }
        byte[] dataKey = new byte[ValueCipher.DATA_KEY_BYTES];
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.DECRYPT_MODE, kek, new GCMParameterSpec(TAG_BITS, wrapped, 0, NONCE_BYTES));
            cipher.updateAAD(aad(keyId));
            cipher.doFinal(wrapped, NONCE_BYTES, wrapped.length - NONCE_BYTES, dataKey, 0);
        } catch (AEADBadTagException e) {
            Arrays.fill(dataKey, (byte) 0);
            throw new DecryptionFailedException("wrapped data key does not authenticate under KEK '" + keyId
                    + "': the KEK with this id is not the one it was wrapped with, or the wrapped key or its KEK id"
                    + " were altered in metadata", e);
        } catch (GeneralSecurityException e) {
            Arrays.fill(dataKey, (byte) 0);
            throw new DecryptionFailedException("unwrapping a data key under KEK '" + keyId + "' failed: " + e, e);
        }
        return dataKey;
    }

    /** Lists the KEK ids, never key material. */
    @Override
    public String toString() {
        return "EnvelopeKeyProvider{current=" + currentKeyId + ", keks=" + keks.keySet() + "}";
    }

    private SecretKey kek(String keyId) {
        SecretKey kek = keks.get(keyId);
        if (kek == null) {
            throw new KeyUnavailableException("no KEK with id '" + keyId + "' is configured (configured: "
                    + keks.keySet() + "); supply it in the keystore or KEK list to read values wrapped under it");
        }
        return kek;
    }

    private static byte[] aad(String keyId) {
        return ("hybris-kek:" + keyId).getBytes(StandardCharsets.UTF_8);
    }

    private static EnvelopeKeyProvider create(Map<String, SecretKey> keks, String currentKeyId, String where) {
        if (!keks.containsKey(currentKeyId)) {
            throw new HybrisConfigurationException("current KEK id '" + currentKeyId + "' is not configured" + where
                    + " (configured: " + keks.keySet() + ")");
        }
        return new EnvelopeKeyProvider(Collections.unmodifiableMap(keks), currentKeyId);
    }

    private static void checkId(String id, String what) {
        if (!KEY_ID.matcher(id).matches()) {
            throw new HybrisConfigurationException(what + " is not a valid KEK id: use 1-64 of A-Z a-z 0-9 . _ -");
        }
    }

    private static SecretKey copyKey(String id, SecretKey key, String where) {
        String algorithm = key.getAlgorithm();
        byte[] raw = key.getEncoded();
        if (raw == null) {
            throw new HybrisConfigurationException("KEK '" + id + "'" + where + " cannot be exported (getEncoded()"
                    + " is null); use a KeyProvider of your own for keys held in an HSM or KMS");
        }
        try {
            if (algorithm == null || !algorithm.toUpperCase(Locale.ROOT).startsWith("AES")) {
                throw new HybrisConfigurationException("KEK '" + id + "'" + where + " is a " + algorithm
                        + " key; KEKs must be 256-bit AES keys");
            }
            if (raw.length != KEK_BYTES) {
                throw new HybrisConfigurationException("KEK '" + id + "'" + where + " is a " + raw.length * 8
                        + "-bit AES key; KEKs must be 256-bit AES keys");
            }
            return new SecretKeySpec(raw, "AES");
        } finally {
            Arrays.fill(raw, (byte) 0);
        }
    }
}
