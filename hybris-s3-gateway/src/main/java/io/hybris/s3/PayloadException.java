/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.io.IOException;

/**
 * A request body that failed a check while it was read (a digest, a chunk signature, the framing): an
 * {@link IOException}, so it ends the Hybris put reading the body (which then commits nothing), carrying the S3
 * error to answer.
 */
final class PayloadException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient S3Exception error;

    PayloadException(S3Exception error) {
        super(error.getMessage(), error);
        this.error = error;
    }

    S3Exception error() {
        return error;
    }
}
