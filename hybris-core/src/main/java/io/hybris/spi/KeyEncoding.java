/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The reversible encoding of a user key into a name that every supported store accepts: ZooKeeper znode
 * names, Consul keys, S3/Azure/GCS object names and file names. Bytes of the key's UTF-8 form outside
 * {@code [A-Za-z0-9_-]} and {@code .} are written as {@code %XX} (upper-case hex); a leading {@code .} is
 * always encoded, so no encoded key is {@code "."} or {@code ".."}. The result never contains {@code /} or
 * {@code #}. Keys must be valid (no unpaired surrogates); Hybris validates them before they reach a store.
 */
public final class KeyEncoding {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KeyEncoding() {
    }

    /** Encodes a validated key. */
    public static String encode(String key) {
        if (needsNoEscape(key)) {
            return key; // the common case: every character safe ASCII, so the encoding is the key itself
        }
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(utf8.length + 8);
        for (int i = 0; i < utf8.length; i++) {
            int b = utf8[i] & 0xff;
            if (isSafe(b) && !(i == 0 && b == '.')) {
                sb.append((char) b);
            } else {
                sb.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xf]);
            }
        }
        return sb.toString();
    }

    private static boolean needsNoEscape(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c >= 128 || !isSafe(c) || (i == 0 && c == '.')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes what {@link #encode} produced.
     *
     * @throws IllegalArgumentException if {@code encoded} is not a valid encoding
     */
    public static String decode(String encoded) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 3 > encoded.length()) {
                    throw new IllegalArgumentException("truncated escape in encoded key '" + encoded + "'");
                }
                int hi = Character.digit(encoded.charAt(i + 1), 16);
                int lo = Character.digit(encoded.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("bad escape in encoded key '" + encoded + "'");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c < 128 && (isSafe(c))) {
                out.write(c);
            } else {
                throw new IllegalArgumentException("character '" + c + "' cannot appear in encoded key '"
                        + encoded + "'");
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isSafe(int b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '-' || b == '_' || b == '.';
    }
}
