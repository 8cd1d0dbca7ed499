/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.DecryptionFailedException;
import io.hybris.KeyUnavailableException;
import io.hybris.crypto.ValueCipher;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataKey;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Turns a value into the bytes stored on the clouds and back (paper §3.8, with authenticated encryption): with a
 * {@link KeyProvider} configured, each version is encrypted under a fresh data key whose custody record goes into
 * the metadata; without one, values are stored as they are. Reading works for both, and for data keys stored
 * unwrapped (id {@code ""}) even without a provider. Thread-safe.
 */
final class Sealer {
    /** What PUT stores: the bytes for the clouds and the data key's custody record (null if plaintext). */
    record Sealed(byte[] stored, Metadata.Encryption encryption) {
    }

    private final KeyProvider keys;
    private final SecureRandom random = new SecureRandom();

    /** @param keys the provider new versions are encrypted with; null to store values unencrypted */
    Sealer(KeyProvider keys) {
        this.keys = keys;
    }

    boolean encrypts() {
        return keys != null;
    }

    /**
     * Whether a value described by {@code meta}, taken from an unauthenticated cache entry, can only be forged with a
     * key-encryption key: sealed under a wrapped data key, or plaintext when this client does not encrypt either
     * (a plaintext entry is forgeable, as docs/cache.md says). Not a deletion for a client that encrypts (a tombstone
     * has no ciphertext to authenticate). Not a chunked encrypted value: its chunks are sealed one by one, and only
     * the manifest (unauthenticated in such an entry) binds their number and order, so a manifest cut short or
     * reordered still opens under the genuine data key. Not a data key kept unwrapped in metadata either.
     */
    boolean authenticatesCacheEntryOf(Metadata meta) {
        Metadata.Encryption e = meta.encryption();
        return e == null || meta.isTombstone() ? !encrypts() : !e.keyId().isEmpty() && !meta.isChunked();
    }

    /**
     * The provider's current KEK id, checked to be what metadata can record: at most 255 bytes of printable ASCII
     * (the id is stored behind a one-byte length, as ASCII; the in-metadata custody's id is empty). Anything else used to be committed in a form no read could
     * find the key by; it is refused before anything is written.
     */
    private String currentKeyId() {
        String id = keys.currentKeyId();
        if (id == null || id.length() > 255 || !id.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            throw new io.hybris.HybrisConfigurationException("the key provider's current KEK id '" + id + "' cannot be"
                    + " recorded in metadata: a KEK id must be at most 255 characters of printable ASCII;"
                    + " give the key such an id (for a KMS key, e.g. its alias or a hash of its resource name)");
        }
        return id;
    }

    Sealed seal(byte[] value) {
        if (keys == null) {
            return new Sealed(value.clone(), null);
        }
        byte[] dataKey = ValueCipher.newDataKey(random);
        try {
            byte[] stored = ValueCipher.encrypt(dataKey, value, random);
            String keyId = currentKeyId();
            return new Sealed(stored, new Metadata.Encryption(keyId, wrap(keyId, dataKey)));
        } finally {
            Arrays.fill(dataKey, (byte) 0);
        }
    }

    /**
     * The data key of a new chunked version and its custody record for the metadata; null when values are stored
     * unencrypted. Each chunk is sealed with {@link #sealChunk} under this key (a fresh random nonce per chunk).
     */
    VersionKey newVersionKey() {
        if (keys == null) {
            return null;
        }
        byte[] dataKey = ValueCipher.newDataKey(random);
        String keyId = currentKeyId();
        return new VersionKey(dataKey, new Metadata.Encryption(keyId, wrap(keyId, dataKey)));
    }

    /** A chunked version's data key (zero it with {@link VersionKey#destroy} when done) and its custody record. */
    record VersionKey(byte[] dataKey, Metadata.Encryption encryption) {
        void destroy() {
            Arrays.fill(dataKey, (byte) 0);
        }
    }

    /** The stored bytes of one chunk: encrypted under {@code dataKey}, or the chunk itself when it is null. */
    byte[] sealChunk(byte[] dataKey, byte[] chunk) {
        return dataKey == null ? chunk : ValueCipher.encrypt(dataKey, chunk, random);
    }

    /** One chunk's value bytes from its verified stored bytes; {@code dataKey} (null if plaintext) is kept. */
    static byte[] openChunk(byte[] dataKey, byte[] stored) {
        return dataKey == null ? stored : ValueCipher.decrypt(dataKey, stored);
    }

    /** The data key of an encrypted version (checked before any download); null for a plaintext version. */
    byte[] dataKey(Metadata meta, MetadataKey key) {
        return meta.encryption() == null ? null : dataKey(meta.encryption(), key.toString()); // plaintext: no name
    }

    /** The data key in custody record {@code e} (null for plaintext: then null). */
    byte[] dataKey(Metadata.Encryption e, String what) {
        if (e == null) {
            return null;
        }
        if (e.keyId().isEmpty()) {
            if (e.wrapped().length != ValueCipher.DATA_KEY_BYTES) {
                throw new DecryptionFailedException("the data key of " + what + " in metadata is corrupted ("
                        + e.wrapped().length + " bytes instead of " + ValueCipher.DATA_KEY_BYTES + ")");
            }
            return e.wrapped().clone();
        }
        if (keys == null) {
            throw new KeyUnavailableException(what + " is encrypted with a data key wrapped by key-encryption key '"
                    + e.keyId() + "', and this client has no key provider: configure hybris.crypto.mode=envelope"
                    + " with that key");
        }
        return copy(keys.unwrap(e.keyId(), e.wrapped().clone()), "unwrap");
    }

    /**
     * The provider's wrapping of a copy of {@code dataKey}. The arrays passed to and returned by a provider are its
     * own: one that keeps the data keys it wrapped, or returns from {@code unwrap} a data key it caches, would
     * otherwise see them zeroed when Hybris is done with its copy (and every later read of the version fail).
     */
    private byte[] wrap(String keyId, byte[] dataKey) {
        return copy(keys.wrap(keyId, dataKey.clone()), "wrap");
    }

    private byte[] copy(byte[] returned, String call) {
        if (returned == null) {
            throw new io.hybris.CryptoException("the key provider " + keys.getClass().getName() + " returned null"
                    + " from " + call);
        }
        return returned.clone();
    }

    /** The value from verified stored bytes. */
    byte[] open(byte[] dataKey, byte[] stored) {
        if (dataKey == null) {
            return stored;
        }
        try {
            return ValueCipher.decrypt(dataKey, stored);
        } finally {
            Arrays.fill(dataKey, (byte) 0);
        }
    }

    /** The custody record re-wrapped under the provider's current KEK, or null if it already is. */
    Metadata.Encryption rewrap(Metadata meta, String what) {
        return rewrap(meta.encryption(), what);
    }

    /** {@code e} re-wrapped under the provider's current KEK, or null if it already is (or no value is encrypted). */
    Metadata.Encryption rewrap(Metadata.Encryption e, String what) {
        if (e == null || keys == null) {
            return null;
        }
        String target = currentKeyId();
        if (e.keyId().equals(target)) {
            return null;
        }
        byte[] dataKey = dataKey(e, what);
        try {
            return new Metadata.Encryption(target, wrap(target, dataKey));
        } finally {
            Arrays.fill(dataKey, (byte) 0);
        }
    }
}
