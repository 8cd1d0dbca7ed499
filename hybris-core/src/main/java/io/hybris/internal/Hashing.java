/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 through the JDK (hardware-accelerated where the CPU has SHA extensions). */
public final class Hashing {
    /** Never updated: only cloned (a clone reads its state, so sharing it between threads is safe). */
    private static final MessageDigest PROTOTYPE = cloneablePrototype();

    private Hashing() {
    }

    /** The SHA-256 of {@code data}. */
    public static byte[] sha256(byte[] data) {
        return newSha256().digest(data);
    }

    /** A fresh SHA-256 digest, for hashing bytes as they arrive. */
    public static MessageDigest newSha256() {
        if (PROTOTYPE != null) {
            try {
                // a clone copies a few arrays; getInstance looks the provider up every time (measured: more than
                // half of the hashing's profile samples on a 1 KiB PUT)
                return (MessageDigest) PROTOTYPE.clone();
            } catch (CloneNotSupportedException e) {
                // a provider whose digest cannot be cloned: look it up
            }
        }
        return lookUpSha256();
    }

    private static MessageDigest cloneablePrototype() {
        MessageDigest digest = lookUpSha256();
        try {
            digest.clone();
            return digest;
        } catch (CloneNotSupportedException e) {
            return null;
        }
    }

    private static MessageDigest lookUpSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    /** Constant-time comparison of two hashes. */
    public static boolean matches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    /** Lower-case hex. */
    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
