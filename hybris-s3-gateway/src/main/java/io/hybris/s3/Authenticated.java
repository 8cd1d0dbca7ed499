/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

/**
 * A request whose signature checked out: who sent it and what its payload hash says.
 *
 * @param accessKey     the access key that signed
 * @param payloadHash   the {@code x-amz-content-sha256} value signed (a hex SHA-256, {@code UNSIGNED-PAYLOAD} or a
 *                      {@code STREAMING-...} mode)
 * @param signingKey    the derived key, for chunk signatures
 * @param amzDate       the request's {@code x-amz-date}
 * @param scope         the credential scope {@code date/region/s3/aws4_request}
 * @param seedSignature the request's signature, the first link of the chunk-signature chain
 */
record Authenticated(String accessKey, String payloadHash, byte[] signingKey, String amzDate, String scope,
                     String seedSignature) {
}
