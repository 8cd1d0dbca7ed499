/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.nio.charset.StandardCharsets;

/** Which object keys Hybris can store, checked before a body is read, with the S3 error a client expects. */
final class Keys {
    /** Hybris's limit on a key's UTF-8 bytes (S3's is 1024). */
    static final int MAX_BYTES = 256;

    private Keys() {
    }

    static void check(String key) {
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new S3Exception(400, "KeyTooLongError", "Your key is too long: " + bytes + " bytes in UTF-8; the"
                    + " Hybris S3 gateway stores keys of up to " + MAX_BYTES + " bytes");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c) || Character.isSurrogate(c)
                    && !(Character.isHighSurrogate(c) && i + 1 < key.length()
                    && Character.isLowSurrogate(key.charAt(++i)))) {
                throw S3Exception.invalidArgument("the key has a control character or an unpaired surrogate at"
                        + " index " + i + "; Hybris cannot store it");
            }
        }
    }
}
