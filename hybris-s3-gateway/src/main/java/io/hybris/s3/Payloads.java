/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Opens the body of a PUT or UploadPart as the gateway stores it: {@code aws-chunked} decoded (signed chunks
 * checked), every stated digest verified at its end ({@link VerifyingInputStream}), with the length of the
 * decoded content (-1 if the client did not say).
 */
final class Payloads {
    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private Payloads() {
    }

    /** A body on its way in and its decoded length (-1: unknown). */
    record Payload(VerifyingInputStream in, long length) {
    }

    static Payload open(S3Request r, Authenticated auth) {
        String mode = auth.payloadHash();
        InputStream raw = r.body();
        AwsChunkedInputStream chunked = null;
        long length;
        if (mode.startsWith("STREAMING-")) {
            switch (mode) {
                case "STREAMING-AWS4-HMAC-SHA256-PAYLOAD" -> chunked = new AwsChunkedInputStream(raw, auth, true, false);
                case "STREAMING-UNSIGNED-PAYLOAD-TRAILER" -> chunked = new AwsChunkedInputStream(raw, auth, false, true);
                case "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER" ->
                        chunked = new AwsChunkedInputStream(raw, auth, true, true);
                default -> throw S3Exception.notImplemented("payload signing mode " + mode);
            }
            String decoded = r.header("x-amz-decoded-content-length");
            if (decoded == null) {
                throw new S3Exception(411, "MissingContentLength", "An aws-chunked upload needs the"
                        + " x-amz-decoded-content-length header");
            }
            length = parseLength(decoded, "x-amz-decoded-content-length");
        } else {
            String cl = r.header("content-length");
            String te = r.header("transfer-encoding");
            if (cl == null && (te == null || !te.trim().equalsIgnoreCase("chunked"))) { // the JDK decodes only that
                // neither: HTTP says the body is empty, and storing an empty object for a client that meant to
                // send bytes would replace its data with nothing
                throw new S3Exception(411, "MissingContentLength", "You must provide the Content-Length HTTP header"
                        + " (or send the body with Transfer-Encoding: chunked)");
            }
            length = cl == null ? -1 : parseLength(cl, "Content-Length");
        }
        String sha = HEX_SHA256.matcher(mode).matches() ? mode : null;
        Checksums checksum = null;
        String expectedChecksum = null;
        for (String algorithm : Checksums.ALGORITHMS) {
            String v = r.header("x-amz-checksum-" + algorithm);
            if (v != null) {
                checksum = new Checksums(algorithm);
                expectedChecksum = v;
                break;
            }
        }
        String trailer = r.header("x-amz-trailer");
        if (checksum == null && trailer != null && chunked != null) {
            String name = trailer.trim().toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-checksum-")) {
                checksum = new Checksums(name.substring("x-amz-checksum-".length()));
            }
        }
        AwsChunkedInputStream trailers = chunked;
        VerifyingInputStream in = new VerifyingInputStream(chunked != null ? chunked : raw, sha,
                r.header("content-md5"), checksum, expectedChecksum,
                () -> trailers == null ? Map.of() : trailers.trailers());
        return new Payload(in, length);
    }

    private static long parseLength(String v, String header) {
        try {
            long n = Long.parseLong(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw S3Exception.invalidArgument(header + " '" + v + "' is not a length in bytes");
        }
    }
}
