/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;

import java.util.Optional;

/**
 * A cloud that corrupts what it serves: while active, {@link #get} returns the stored bytes with every bit
 * flipped (same length, every byte different), and an empty object as one garbage byte. Writes, listings and
 * deletes are untouched, so the corruption is only visible to readers, as with bit rot or a malicious cloud.
 *
 * <p>The {@code maxBytes} limit still holds: when the garbage byte of an empty object would exceed it, the
 * read fails with {@link OversizedObjectException}, as a real store's bounded download would.
 *
 * <p>Thread-safe; deterministic (no randomness).
 *
 * <pre>{@code
 * CorruptingCloudStore bad = CorruptingCloudStore.of(new InMemoryCloudStore("c1"));
 * bad.setActive(false); // heal the cloud
 * }</pre>
 */
public final class CorruptingCloudStore extends FaultInjectingCloudStore {
    /** What an empty object is served as. */
    static final byte GARBAGE = (byte) 0x5A;

    private CorruptingCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** A corrupting view of {@code delegate}, active at once. */
    public static CorruptingCloudStore of(CloudStore delegate) {
        return new CorruptingCloudStore(delegate);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        Optional<byte[]> stored = delegate().get(objectKey, maxBytes);
        if (!isActive() || stored.isEmpty()) {
            return stored;
        }
        byte[] bytes = stored.get();
        if (bytes.length == 0) {
            if (maxBytes < 1) {
                throw new OversizedObjectException(id(), objectKey, maxBytes);
            }
            return Optional.of(new byte[] {GARBAGE});
        }
        byte[] corrupt = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            corrupt[i] = (byte) ~bytes[i];
        }
        return Optional.of(corrupt);
    }
}
