/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.ClientClosedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisException;
import io.hybris.InvalidRangeException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOvertakenException;
import io.hybris.ValueLengthMismatchException;
import io.hybris.ValueSourceException;
import io.hybris.ValueStreamException;
import io.hybris.ValueTooLargeException;

import java.util.function.Function;
import java.util.function.Supplier;

/** Hybris's exceptions as the S3 errors a client expects. */
final class Failures {
    private Failures() {
    }

    /**
     * Runs a Hybris call, translating its failure; {@link InvalidRangeException} and
     * {@link PreconditionFailedException} pass through for the caller to answer.
     */
    static <T> T translate(Supplier<T> call) {
        try {
            return call.get();
        } catch (InvalidRangeException | PreconditionFailedException e) {
            throw e;
        } catch (HybrisException e) {
            throw toS3(e);
        }
    }

    /**
     * {@link #translate}, except that a request Hybris refuses
     * ({@link InvalidRequestException}) fails as {@code refused} says.
     */
    static <T> T translate(Supplier<T> call, Function<InvalidRequestException, RuntimeException> refused) {
        return translate(() -> {
            try {
                return call.get();
            } catch (InvalidRequestException e) {
                throw refused.apply(e);
            }
        });
    }

    static S3Exception toS3(HybrisException e) {
        if (e instanceof PreconditionFailedException) {
            return ObjectOperations.preconditionFailed("the object's current version");
        }
        if (e instanceof PutOvertakenException) {
            // a PutObject or CopyObject without conditions whose value, streamed in chunks, a conditional write or
            // a deletion of the key overtook before its commit (docs/protocol.md, PUT step 4): nothing stored
            return new S3Exception(409, "OperationAborted", "A conflicting conditional operation or deletion of this"
                    + " key overtook this upload; nothing was stored. Please try again", e);
        }
        if (e instanceof ValueSourceException) {
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                if (c instanceof PayloadException p) {
                    return p.error();
                }
                if (c instanceof ValueStreamException read) {
                    return toS3(read.getCause()); // a CopyObject's source failed: the gateway's read, not the client's
                }
            }
            return new S3Exception(400, "IncompleteBody", "The request body could not be read to its end ("
                    + e.getMessage() + "); nothing was stored", e);
        }
        if (e instanceof ValueLengthMismatchException) {
            return new S3Exception(400, "IncompleteBody", "You did not provide the number of bytes specified by the"
                    + " Content-Length HTTP header; nothing was stored", e);
        }
        if (e instanceof ValueTooLargeException) {
            return new S3Exception(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed object"
                    + " size: " + e.getMessage(), e);
        }
        if (e instanceof InvalidRequestException) {
            return new S3Exception(400, "InvalidArgument", e.getMessage(), e);
        }
        if (e instanceof NotEnoughCloudsException || e instanceof MetadataUnavailableException
                || e instanceof DeadlineExceededException || e instanceof ClientClosedException) {
            return new S3Exception(503, "ServiceUnavailable", "Reduce your request rate or retry: " + e.getMessage(),
                    e);
        }
        return new S3Exception(500, "InternalError", "We encountered an internal error. Please try again. ("
                + e.getMessage() + ")", e);
    }
}
