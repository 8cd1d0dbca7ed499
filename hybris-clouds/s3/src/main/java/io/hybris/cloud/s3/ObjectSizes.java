/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/** Reads an object's total size from a GET response, to refuse an oversized object before reading its body. */
final class ObjectSizes {
    /** Returned when the response does not say. */
    static final long UNKNOWN = -1;

    private ObjectSizes() {
    }

    /**
     * The object's total size: the part after {@code /} of {@code Content-Range: bytes 0-99/1234} for a ranged
     * (206) answer, else {@code Content-Length} (a 200 answer carries the whole object), else {@link #UNKNOWN}.
     */
    static long totalSize(GetObjectResponse response) {
        String range = response.contentRange();
        if (range != null) {
            return parseTotal(range);
        }
        Long length = response.contentLength();
        return length == null ? UNKNOWN : length;
    }

    /** The total of a {@code Content-Range} header value, or {@link #UNKNOWN} for {@code *} or a malformed one. */
    static long parseTotal(String contentRange) {
        int slash = contentRange.lastIndexOf('/');
        if (slash < 0) {
            return UNKNOWN;
        }
        String total = contentRange.substring(slash + 1).trim();
        try {
            return Long.parseLong(total);
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
    }
}
