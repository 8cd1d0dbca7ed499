/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The additional checksums S3 clients send ({@code x-amz-checksum-<algorithm>}, as a header or a trailer): CRC32,
 * CRC32C, CRC64NVME, SHA1 and SHA256, each base64 of the big-endian value or digest. One instance computes one
 * algorithm over a body.
 */
final class Checksums {
    /** The algorithms the gateway verifies, by the header suffix. */
    static final java.util.List<String> ALGORITHMS = java.util.List.of("crc32", "crc32c", "crc64nvme", "sha1",
            "sha256");

    private final String algorithm;
    private final Checksum crc;
    private final Crc64Nvme crc64;
    private final MessageDigest digest;

    Checksums(String algorithm) {
        this.algorithm = algorithm.toLowerCase(Locale.ROOT);
        switch (this.algorithm) {
            case "crc32" -> { crc = new CRC32(); crc64 = null; digest = null; }
            case "crc32c" -> { crc = new CRC32C(); crc64 = null; digest = null; }
            case "crc64nvme" -> { crc = null; crc64 = new Crc64Nvme(); digest = null; }
            case "sha1" -> { crc = null; crc64 = null; digest = md("SHA-1"); }
            case "sha256" -> { crc = null; crc64 = null; digest = md("SHA-256"); }
            default -> throw S3Exception.invalidArgument("x-amz-checksum-" + algorithm + " is not a checksum"
                    + " algorithm the gateway knows (" + ALGORITHMS + ")");
        }
    }

    String algorithm() {
        return algorithm;
    }

    void update(byte[] b, int off, int len) {
        if (crc != null) {
            crc.update(b, off, len);
        } else if (crc64 != null) {
            crc64.update(b, off, len);
        } else {
            digest.update(b, off, len);
        }
    }

    /** The base64 form S3 uses. */
    String base64() {
        byte[] value;
        if (crc != null) {
            value = ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
        } else if (crc64 != null) {
            value = ByteBuffer.allocate(8).putLong(crc64.value()).array();
        } else {
            value = digest.digest();
        }
        return Base64.getEncoder().encodeToString(value);
    }

    private static MessageDigest md(String name) {
        return SigV4.digest(name);
    }

    /** CRC-64/NVME: reflected polynomial 0x9a6c9329ac4bc9b5, initial value and final xor all ones. */
    static final class Crc64Nvme {
        private static final long[] TABLE = new long[256];

        static {
            long poly = 0x9a6c9329ac4bc9b5L;
            for (int i = 0; i < 256; i++) {
                long c = i;
                for (int k = 0; k < 8; k++) {
                    c = (c & 1) != 0 ? (c >>> 1) ^ poly : c >>> 1;
                }
                TABLE[i] = c;
            }
        }

        private long crc = -1L;

        void update(byte[] b, int off, int len) {
            long c = crc;
            for (int i = off; i < off + len; i++) {
                c = TABLE[(int) ((c ^ b[i]) & 0xff)] ^ (c >>> 8);
            }
            crc = c;
        }

        long value() {
            return ~crc;
        }
    }
}
