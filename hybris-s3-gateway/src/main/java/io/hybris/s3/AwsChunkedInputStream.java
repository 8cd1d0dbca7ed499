/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes an {@code aws-chunked} request body: {@code <hex size>[;chunk-signature=<sig>]\r\n<data>\r\n} ... a final
 * empty chunk, then (in the trailer modes) trailer lines such as {@code x-amz-checksum-crc32:<base64>} and an empty
 * line. In the signed mode each chunk's signature is checked — it signs the chunk's SHA-256 and the previous
 * signature, starting from the request's — before any of its bytes are handed on, so a chunk is buffered whole (at
 * most {@value #MAX_CHUNK} bytes); the trailers' {@code x-amz-trailer-signature} continues the chain. A framing or
 * signature error surfaces as a {@link PayloadException}.
 */
final class AwsChunkedInputStream extends InputStream {
    static final int MAX_CHUNK = 16 << 20;
    private static final int MAX_LINE = 4096;
    private static final String TRAILER_SIGNATURE = "x-amz-trailer-signature";

    private final InputStream in;
    private final Authenticated auth;
    private final boolean signed;
    private final boolean trailer;
    private final Map<String, String> trailers = new TreeMap<>();
    private String previousSignature;
    private byte[] chunk = new byte[0];
    private int pos;
    private boolean done;

    AwsChunkedInputStream(InputStream in, Authenticated auth, boolean signed, boolean trailer) {
        this.in = in;
        this.auth = auth;
        this.signed = signed;
        this.trailer = trailer;
        this.previousSignature = auth.seedSignature();
    }

    /** The trailer headers, lower-case names; complete once the stream reached its end. */
    Map<String, String> trailers() {
        return trailers;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (pos == chunk.length) {
            if (done || !nextChunk()) {
                return -1;
            }
        }
        int n = Math.min(len, chunk.length - pos);
        System.arraycopy(chunk, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Reads the next chunk; false at the end (after the final chunk and any trailers). */
    private boolean nextChunk() throws IOException {
        String header = readLine();
        String sizeText = header;
        String signature = null;
        int semi = header.indexOf(';');
        if (semi >= 0) {
            sizeText = header.substring(0, semi);
            String ext = header.substring(semi + 1);
            if (ext.startsWith("chunk-signature=")) {
                signature = ext.substring("chunk-signature=".length());
            }
        }
        int size;
        try {
            size = Integer.parseInt(sizeText.trim(), 16);
        } catch (NumberFormatException e) {
            throw fail("IncompleteBody", "bad aws-chunked chunk header '" + abbreviate(header) + "'");
        }
        if (size < 0 || size > MAX_CHUNK) {
            throw fail("InvalidArgument", "aws-chunked chunk of " + size + " bytes exceeds the gateway's limit of "
                    + MAX_CHUNK);
        }
        byte[] data = in.readNBytes(size);
        if (data.length < size) {
            throw fail("IncompleteBody", "the request body ended inside a chunk");
        }
        if (signed) {
            if (signature == null) {
                throw fail("SignatureDoesNotMatch", "a chunk of a signed aws-chunked body has no chunk-signature");
            }
            String toSign = "AWS4-HMAC-SHA256-PAYLOAD\n" + auth.amzDate() + "\n" + auth.scope() + "\n"
                    + previousSignature + "\n" + SigV4.EMPTY_SHA256 + "\n" + SigV4.sha256Hex(data);
            String expected = SigV4.hex(SigV4.hmac(auth.signingKey(), toSign));
            if (!SigV4.same(expected, signature.toLowerCase(Locale.ROOT))) {
                throw fail("SignatureDoesNotMatch", "the signature of an aws-chunked chunk does not match");
            }
            previousSignature = expected;
        }
        if (size == 0) {
            if (trailer) {
                readTrailers();
            } else {
                readLine(); // the CRLF after the final chunk
            }
            done = true;
            chunk = new byte[0];
            pos = 0;
            return false;
        }
        if (!readLine().isEmpty()) {
            throw fail("IncompleteBody", "an aws-chunked chunk is not followed by CRLF");
        }
        chunk = data;
        pos = 0;
        return true;
    }

    /**
     * Reads the trailer lines up to the empty one. In the signed mode the last must be {@code
     * x-amz-trailer-signature}, which signs the SHA-256 of the other trailers ({@code name:value\n} each, in name
     * order) chained to the final chunk's signature.
     */
    private void readTrailers() throws IOException {
        String signature = null;
        while (true) {
            String line = readLine();
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw fail("IncompleteBody", "bad trailer line '" + abbreviate(line) + "'");
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (name.equals(TRAILER_SIGNATURE)) {
                signature = value;
            } else {
                trailers.put(name, value);
            }
        }
        if (signed) {
            checkTrailerSignature(signature);
        }
    }

    private void checkTrailerSignature(String signature) throws PayloadException {
        if (signature == null) {
            throw fail("SignatureDoesNotMatch", "a signed aws-chunked body with trailers has no " + TRAILER_SIGNATURE);
        }
        StringBuilder canonical = new StringBuilder();
        trailers.forEach((name, value) -> canonical.append(name).append(':').append(value).append('\n'));
        String toSign = "AWS4-HMAC-SHA256-TRAILER\n" + auth.amzDate() + "\n" + auth.scope() + "\n"
                + previousSignature + "\n" + SigV4.sha256Hex(canonical.toString().getBytes(StandardCharsets.UTF_8));
        String expected = SigV4.hex(SigV4.hmac(auth.signingKey(), toSign));
        if (!SigV4.same(expected, signature.toLowerCase(Locale.ROOT))) {
            throw fail("SignatureDoesNotMatch", "the " + TRAILER_SIGNATURE + " of an aws-chunked body does not match");
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (line.size() == 0 && done) {
                    return "";
                }
                if (line.size() == 0) {
                    return ""; // a body that ends right after the last CRLF
                }
                throw fail("IncompleteBody", "the request body ended inside an aws-chunked line");
            }
            if (c == '\r') {
                int lf = in.read();
                if (lf != '\n') {
                    throw fail("IncompleteBody", "a CR without LF in an aws-chunked body");
                }
                return line.toString(StandardCharsets.US_ASCII);
            }
            line.write(c);
            if (line.size() > MAX_LINE) {
                throw fail("IncompleteBody", "an aws-chunked line longer than " + MAX_LINE + " bytes");
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    private static PayloadException fail(String code, String message) {
        return new PayloadException(new S3Exception(code.equals("SignatureDoesNotMatch") ? 403 : 400, code,
                message));
    }
}
