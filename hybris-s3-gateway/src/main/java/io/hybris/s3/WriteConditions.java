/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;

import java.util.Optional;

/**
 * The preconditions of S3 writes, turned into Hybris's: {@code If-None-Match: *} (create only) and
 * {@code If-Match: <etag>} (replace or delete that version only) on PutObject, CopyObject, CompleteMultipartUpload,
 * DeleteObject and each object of DeleteObjects. An ETag is checked against the current version's, then the write
 * is conditional on that version, so a write that replaced it in between fails the commit instead.
 */
final class WriteConditions {
    private WriteConditions() {
    }

    /** The precondition of a PUT-like request ({@code If-None-Match}, {@code If-Match}); none without them. */
    static PutOptions forPut(S3Request r, Hybris hybris, String bucket, String key) {
        String ifNoneMatch = r.header("if-none-match");
        String ifMatch = r.header("if-match");
        if (ifNoneMatch != null) {
            if (!ifNoneMatch.trim().equals("*")) {
                throw S3Exception.notImplemented("If-None-Match with an ETag on a write (only '*' is supported)");
            }
            return PutOptions.ifAbsent();
        }
        if (ifMatch != null) {
            return PutOptions.ifMatch(matchedVersion(hybris, bucket, key, ifMatch));
        }
        return PutOptions.none();
    }

    /** The precondition of a delete whose {@code If-Match} (or DeleteObjects {@code ETag}) is {@code ifMatch}. */
    static DeleteOptions forDelete(Hybris hybris, String bucket, String key, String ifMatch) {
        return ifMatch == null ? DeleteOptions.none()
                : DeleteOptions.ifMatch(matchedVersion(hybris, bucket, key, ifMatch));
    }

    /**
     * The current version of the key if its ETag is {@code ifMatch} ({@code *}: any); 404 NoSuchKey if the key has
     * no value, 412 PreconditionFailed if the ETag differs.
     */
    private static String matchedVersion(Hybris hybris, String bucket, String key, String ifMatch) {
        Optional<VersionInfo> current = Failures.translate(() -> hybris.describe(bucket, key));
        if (current.isEmpty()) {
            throw new S3Exception(404, "NoSuchKey", "If-Match on a key that does not exist: " + key);
        }
        String wanted = ifMatch.trim();
        if (!wanted.equals("*") && !ObjectMetadata.unquoted(wanted).equals(ObjectMetadata.etag(current.get()))) {
            throw ObjectOperations.preconditionFailed("If-Match");
        }
        return current.get().version();
    }
}
