/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Authenticated decryption failed: a wrapped data key does not verify under the key-encryption key with its
 * recorded id (wrong key, or the wrapped key or its id were altered), or ciphertext that passed the hash check
 * does not authenticate under its data key. Nothing is returned in place of the value.
 */
public class DecryptionFailedException extends CryptoException {
    private static final long serialVersionUID = 1L;

    public DecryptionFailedException(String message) {
        super(message);
    }

    public DecryptionFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
