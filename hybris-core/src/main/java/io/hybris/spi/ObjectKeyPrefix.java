/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import io.hybris.HybrisConfigurationException;

import java.util.regex.Pattern;

/**
 * The object-key prefix option every bucket-based {@link CloudStore} driver offers ({@code hybris.cloud.<id>.prefix}):
 * one place that validates it and puts it in the form the drivers prepend to object keys.
 */
public final class ObjectKeyPrefix {
    /** The longest prefix accepted, leaving most of a provider's 1,024-character name limit to the keys. */
    public static final int MAX_LENGTH = 256;

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._%#-]+(/[A-Za-z0-9._%#-]+)*/?");

    private ObjectKeyPrefix() {
    }

    /**
     * The prefix as drivers use it: empty for none (null or blank), otherwise segments of the characters Hybris
     * uses in object keys ({@code A-Z a-z 0-9 . _ % # -}) separated by single slashes, ending with {@code /}
     * (added if missing).
     *
     * @param optionKey the full property key, for the error message (e.g. {@code hybris.cloud.aws.prefix})
     * @throws HybrisConfigurationException naming the option if the prefix is not of that form, has a
     *                                      {@code .} or {@code ..} segment, or is longer than {@link #MAX_LENGTH}
     */
    public static String normalize(String optionKey, String prefix) {
        String p = prefix == null ? "" : prefix.strip();
        if (p.isEmpty()) {
            return "";
        }
        boolean dotSegment = false;
        for (String segment : p.split("/")) {
            dotSegment |= segment.equals(".") || segment.equals("..");
        }
        if (!PREFIX.matcher(p).matches() || dotSegment || p.length() > MAX_LENGTH) {
            throw new HybrisConfigurationException(optionKey + "=" + p + " is not a valid object-key prefix: use at"
                    + " most " + MAX_LENGTH + " characters in segments of A-Z, a-z, 0-9, '.', '_', '-', '%', '#'"
                    + " separated by single '/', no '.' or '..' segment, not starting with '/' (e.g. team-a/)");
        }
        return p.endsWith("/") ? p : p + "/";
    }
}
