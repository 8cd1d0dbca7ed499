/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.KeyProvider;

/**
 * A {@link KeyProvider} whose current KEK can be switched while a client uses it, as a KMS alias moved to a new key
 * is: wraps and unwraps go to {@code keys}, the current KEK id is the one last given. For tests of KEK rotation.
 * Thread-safe.
 */
public final class SwitchableKeyProvider implements KeyProvider {
    private final KeyProvider keys;
    private volatile String current;

    /** {@code keys} (holding every KEK the test switches between), with {@code current} as the current KEK id. */
    public SwitchableKeyProvider(KeyProvider keys, String current) {
        this.keys = keys;
        this.current = current;
    }

    /** Makes {@code keyId} the current KEK: the next seal or re-wrap uses it. */
    public void switchTo(String keyId) {
        current = keyId;
    }

    @Override
    public String currentKeyId() {
        return current;
    }

    @Override
    public byte[] wrap(String keyId, byte[] dataKey) {
        return keys.wrap(keyId, dataKey);
    }

    @Override
    public byte[] unwrap(String keyId, byte[] wrapped) {
        return keys.unwrap(keyId, wrapped);
    }
}
