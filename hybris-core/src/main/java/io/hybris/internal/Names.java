/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Validation of the names users and configurations supply: containers, keys, cloud ids, client ids. */
public final class Names {
    /** The largest key, in UTF-8 bytes; encoded it still fits every cloud's 1024-byte object-name limit. */
    public static final int MAX_KEY_BYTES = 256;
    /** The longest container name (as for S3 buckets). */
    public static final int MAX_CONTAINER_LENGTH = 63;

    private static final Pattern CLOUD_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,15}");

    private Names() {
    }

    /** Rejects containers that are not 1-63 characters of {@code [a-z0-9-]} starting with a letter or digit. */
    public static void checkContainer(String container) {
        if (container == null) {
            throw new InvalidRequestException("container must not be null");
        }
        if (container.isEmpty()) {
            throw new InvalidRequestException("container must not be empty");
        }
        if (container.length() > MAX_CONTAINER_LENGTH) {
            throw new InvalidRequestException("container '" + abbreviate(container) + "' is " + container.length()
                    + " characters long; the maximum is " + MAX_CONTAINER_LENGTH);
        }
        for (int i = 0; i < container.length(); i++) {
            char c = container.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && i > 0);
            if (!ok) {
                throw new InvalidRequestException("container '" + container + "' has " + describe(c)
                        + " at index " + i + "; containers use lower-case letters, digits and '-' (not first),"
                        + " like cloud bucket names, so that every cloud and metadata store accepts them");
            }
        }
    }

    /** {@link #checkContainer} and {@link #checkKey}. */
    public static void checkContainerAndKey(String container, String key) {
        checkContainer(container);
        checkKey(key);
    }

    /** {@link #checkContainer}, and {@link #checkKey} for a prefix that is neither null nor empty. */
    public static void checkContainerAndPrefix(String container, String prefix) {
        checkContainer(container);
        if (prefix != null && !prefix.isEmpty()) {
            checkKey(prefix);
        }
    }

    /**
     * Rejects keys that are empty, longer than {@value #MAX_KEY_BYTES} UTF-8 bytes, contain an unpaired
     * surrogate (cannot be encoded as UTF-8, so it would not round-trip) or a control character (several
     * clouds and tools mangle or reject them).
     */
    public static void checkKey(String key) {
        if (key == null) {
            throw new InvalidRequestException("key must not be null");
        }
        if (key.isEmpty()) {
            throw new InvalidRequestException("key must not be empty");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new InvalidRequestException("key '" + abbreviate(key) + "' has an unpaired surrogate "
                        + describe(c) + " at index " + i + "; it has no UTF-8 form, so it cannot round-trip");
            }
            if (Character.isLowSurrogate(c)) {
                throw new InvalidRequestException("key '" + abbreviate(key) + "' has an unpaired surrogate "
                        + describe(c) + " at index " + i + "; it has no UTF-8 form, so it cannot round-trip");
            }
            if (Character.isISOControl(c)) {
                throw new InvalidRequestException("key '" + abbreviate(key) + "' has the control "
                        + describe(c) + " at index " + i
                        + "; control characters are rejected because clouds and tools mangle them");
            }
        }
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            throw new InvalidRequestException("key '" + abbreviate(key) + "' is " + bytes
                    + " bytes in UTF-8; the maximum is " + MAX_KEY_BYTES + " so that encoded object names fit"
                    + " every cloud's 1024-byte limit");
        }
    }

    /** Whether {@code id} is a valid cloud id: 1-16 of {@code [a-z0-9-]}, starting with a letter or digit. */
    public static boolean isValidCloudId(String id) {
        return id != null && CLOUD_ID.matcher(id).matches();
    }

    /** Whether {@code id} is a valid client id: 1-32 of {@code [a-z0-9-]}, starting with a letter or digit. */
    public static boolean isValidClientId(String id) {
        return io.hybris.spi.VersionName.isValidClientId(id);
    }

    static String describe(char c) {
        return String.format("character U+%04X%s", (int) c,
                Character.isISOControl(c) || Character.isSurrogate(c) ? "" : " '" + c + "'");
    }

    static String abbreviate(String s) {
        String visible = s.codePoints()
                .map(cp -> Character.isISOControl(cp) || Character.isSurrogate((char) cp) && cp < 0x10000 ? '?' : cp)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return visible.length() <= 40 ? visible : visible.substring(0, 37) + "...";
    }
}
