/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A request body on its way into Hybris: computes its MD5 (the object's ETag) and checks, when it ends, every digest
 * the client stated — the signed {@code x-amz-content-sha256}, {@code Content-MD5}, an {@code x-amz-checksum-*}
 * header or trailer — failing with a {@link PayloadException} (BadDigest, XAmzContentSHA256Mismatch) instead of
 * returning end-of-stream, so a corrupted upload commits nothing.
 */
final class VerifyingInputStream extends FilterInputStream {
    private final MessageDigest md5 = digest("MD5");
    private final MessageDigest sha256;
    private final String expectedSha256Hex;
    private final String expectedMd5Base64;
    private final Checksums checksum;
    private final String expectedChecksum;
    private final Supplier<Map<String, String>> trailers;
    private boolean verified;
    private long count;

    /**
     * @param expectedSha256Hex the signed payload hash, or null if the payload is not signed by its hash
     * @param expectedMd5Base64 {@code Content-MD5}, or null
     * @param checksum          the announced additional checksum (header or trailer), or null
     * @param expectedChecksum  its value from a header, or null if it comes in a trailer
     * @param trailers          the trailers, read once the body ended (empty if none)
     */
    VerifyingInputStream(InputStream in, String expectedSha256Hex, String expectedMd5Base64, Checksums checksum,
                         String expectedChecksum, Supplier<Map<String, String>> trailers) {
        super(in);
        this.expectedSha256Hex = expectedSha256Hex;
        this.sha256 = expectedSha256Hex == null ? null : digest("SHA-256");
        this.expectedMd5Base64 = expectedMd5Base64;
        this.checksum = checksum;
        this.expectedChecksum = expectedChecksum;
        this.trailers = trailers;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            md5.update(b, off, n);
            if (sha256 != null) {
                sha256.update(b, off, n);
            }
            if (checksum != null) {
                checksum.update(b, off, n);
            }
            count += n;
        } else if (n < 0) {
            verify();
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        throw new IOException("skip is not supported on a verified request body");
    }

    /** The hex MD5 of the bytes read (the body's ETag once it was read whole). */
    String md5Hex() {
        return HexFormat.of().formatHex(md5Digest());
    }

    /** The raw MD5 of the bytes read. */
    byte[] md5Digest() {
        try {
            return ((MessageDigest) md5.clone()).digest();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    long count() {
        return count;
    }

    private void verify() throws PayloadException {
        if (verified) {
            return;
        }
        verified = true;
        if (sha256 != null && !HexFormat.of().formatHex(sha256.digest()).equalsIgnoreCase(expectedSha256Hex)) {
            throw new PayloadException(new S3Exception(400, "XAmzContentSHA256Mismatch", "The provided"
                    + " 'x-amz-content-sha256' header does not match what was computed"));
        }
        if (expectedMd5Base64 != null
                && !Base64.getEncoder().encodeToString(md5Digest()).equals(expectedMd5Base64.trim())) {
            throw new PayloadException(new S3Exception(400, "BadDigest", "The Content-MD5 you specified did not"
                    + " match what we received"));
        }
        if (checksum != null) {
            String expected = expectedChecksum != null ? expectedChecksum
                    : trailers.get().get("x-amz-checksum-" + checksum.algorithm());
            if (expected == null) {
                throw new PayloadException(new S3Exception(400, "InvalidRequest", "The x-amz-checksum-"
                        + checksum.algorithm() + " trailer announced by x-amz-trailer is missing"));
            }
            if (!checksum.base64().equals(expected.trim())) {
                throw new PayloadException(new S3Exception(400, "BadDigest", "The " + checksum.algorithm()
                        + " you specified did not match the calculated checksum"));
            }
        }
    }

    private static MessageDigest digest(String name) {
        return SigV4.digest(name);
    }
}
