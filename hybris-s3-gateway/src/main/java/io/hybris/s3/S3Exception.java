/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

/**
 * A request the gateway answers with an S3 error: the S3 error code (e.g. {@code NoSuchKey}), the HTTP status and
 * a message for the client. Thrown by the request handlers, rendered by {@link S3Handler} as S3's XML error.
 */
public class S3Exception extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int status;

    /**
     * @param status  the HTTP status
     * @param code    the S3 error code
     * @param message what went wrong and, where it helps, how to fix it
     */
    public S3Exception(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    /** {@link #S3Exception(int, String, String)} with a cause. */
    public S3Exception(int status, String code, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
    }

    /** The S3 error code. */
    public String code() {
        return code;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    static S3Exception noSuchBucket(String bucket) {
        return new S3Exception(404, "NoSuchBucket", "The specified bucket does not exist: " + bucket);
    }

    static S3Exception noSuchKey(String key) {
        return new S3Exception(404, "NoSuchKey", "The specified key does not exist: " + key);
    }

    static S3Exception notImplemented(String what) {
        return new S3Exception(501, "NotImplemented", what + " is not implemented by the Hybris S3 gateway");
    }

    static S3Exception invalidArgument(String message) {
        return new S3Exception(400, "InvalidArgument", message);
    }

    static S3Exception malformedXml(String message) {
        return new S3Exception(400, "MalformedXML", "The XML you provided was not well-formed or did not validate"
                + " against our published schema: " + message);
    }
}
