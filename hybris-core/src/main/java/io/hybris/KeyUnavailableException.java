/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The key-encryption key a value's data key was wrapped with is not available to this client: no key with that
 * id is configured (e.g. it was rotated out), or no key provider is configured at all. The message names the
 * key id and how to supply it.
 */
public class KeyUnavailableException extends CryptoException {
    private static final long serialVersionUID = 1L;

    public KeyUnavailableException(String message) {
        super(message);
    }
}
