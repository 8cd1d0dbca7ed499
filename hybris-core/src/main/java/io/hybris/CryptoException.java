/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * Encryption or decryption of a value, or custody of its data key, failed. Subclasses say whether the key was
 * unavailable ({@link KeyUnavailableException}) or the protected data failed its integrity check
 * ({@link DecryptionFailedException}). Hybris never returns garbage in place of a value it cannot decrypt.
 */
public class CryptoException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public CryptoException(String message) {
        super(message);
    }

    public CryptoException(String message, Throwable cause) {
        super(message, cause);
    }
}
