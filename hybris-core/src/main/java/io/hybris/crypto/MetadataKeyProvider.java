/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.DecryptionFailedException;
import io.hybris.KeyUnavailableException;
import io.hybris.spi.KeyProvider;

import java.util.Objects;

/**
 * The paper's key custody ({@code hybris.crypto.mode=metadata}): the data key is stored as is in the metadata
 * entry, so whoever can read the metadata store can decrypt the values (the clouds alone still cannot). Use
 * {@link EnvelopeKeyProvider} to keep data keys away from the metadata store's administrators.
 *
 * <pre>{@code
 * KeyProvider keys = new MetadataKeyProvider();
 * byte[] stored = keys.wrap(keys.currentKeyId(), dataKey);   // a copy of dataKey; currentKeyId() is ""
 * byte[] dataKey2 = keys.unwrap("", stored);
 * }</pre>
 *
 * <p>Reading a value written in envelope mode (its recorded KEK id is not {@code ""}) fails with a
 * {@link KeyUnavailableException} naming the KEK id.
 *
 * <p>Immutable and thread-safe. Arguments must not be {@code null}.
 */
public final class MetadataKeyProvider implements KeyProvider {
    /** A provider; it has no state, so instances are interchangeable. */
    public MetadataKeyProvider() {
    }

    /** Always {@code ""}: data keys are stored unwrapped. */
    @Override
    public String currentKeyId() {
        return "";
    }

    /**
     * A copy of {@code dataKey}.
     *
     * @throws KeyUnavailableException  if {@code keyId} is not {@code ""}
     * @throws IllegalArgumentException if {@code dataKey} is not {@value ValueCipher#DATA_KEY_BYTES} bytes
     */
    @Override
    public byte[] wrap(String keyId, byte[] dataKey) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(dataKey, "dataKey");
        if (!keyId.isEmpty()) {
            throw new KeyUnavailableException("cannot wrap a data key under KEK '" + keyId
                    + "': hybris.crypto.mode=metadata stores data keys unwrapped (key id \"\") and has no KEKs;"
                    + " set hybris.crypto.mode=envelope to use KEKs");
        }
        if (dataKey.length != ValueCipher.DATA_KEY_BYTES) {
            throw new IllegalArgumentException("data key has " + dataKey.length + " bytes, expected "
                    + ValueCipher.DATA_KEY_BYTES);
        }
        return dataKey.clone();
    }

    /**
     * A copy of the data key stored in metadata.
     *
     * @throws KeyUnavailableException   if {@code keyId} is not {@code ""}: the value was written in envelope mode
     * @throws DecryptionFailedException if {@code wrapped} is not {@value ValueCipher#DATA_KEY_BYTES} bytes
     */
    @Override
    public byte[] unwrap(String keyId, byte[] wrapped) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(wrapped, "wrapped");
        if (!keyId.isEmpty()) {
            throw new KeyUnavailableException("the value was written in envelope mode with KEK '" + keyId
                    + "' and this client has no envelope keys configured (hybris.crypto.mode=metadata): set"
                    + " hybris.crypto.mode=envelope and supply KEK '" + keyId
                    + "' from a PKCS#12 keystore, an environment variable or a custom KeyProvider");
        }
        if (wrapped.length != ValueCipher.DATA_KEY_BYTES) {
            throw new DecryptionFailedException("corrupted data key in metadata: " + wrapped.length
                    + " bytes, expected " + ValueCipher.DATA_KEY_BYTES);
        }
        return wrapped.clone();
    }

    @Override
    public String toString() {
        return "MetadataKeyProvider";
    }
}
