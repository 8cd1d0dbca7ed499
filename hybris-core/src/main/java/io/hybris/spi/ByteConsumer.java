/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * Receives an object's bytes in order while a {@link CloudStore} reads them, so the caller can work on them (for
 * Hybris: hash them) while the rest is still arriving. {@link java.security.MessageDigest#update(byte[], int,
 * int)} fits: {@code digest::update}.
 */
@FunctionalInterface
public interface ByteConsumer {

    /** Takes {@code length} bytes of {@code bytes} from {@code offset}; must not keep or change the array. */
    void accept(byte[] bytes, int offset, int length);
}
