/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.DeadlineExceededException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.NotEnoughCloudsException;
import site.ycsb.Status;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Maps a failed Hybris call to the YCSB {@link Status} it stands for.
 *
 * <ul>
 *   <li>{@link InvalidRequestException} (a key too long or with control characters, a value over
 *       {@code hybris.value.max-size}): {@link Status#BAD_REQUEST}, nothing was written;</li>
 *   <li>{@link NotEnoughCloudsException}, {@link MetadataUnavailableException}, {@link DeadlineExceededException}:
 *       {@link Status#SERVICE_UNAVAILABLE}, the deployment could not serve the call in time;</li>
 *   <li>a stored value that is not a record of this binding ({@link RecordFormatException}), a closed client
 *       ({@link io.hybris.ClientClosedException}) and
 *       any other failure: {@link Status#ERROR}.</li>
 * </ul>
 * A missing record is not a failure: the binding answers {@link Status#NOT_FOUND} itself.
 */
final class Statuses {
    private Statuses() {
    }

    /** The status for {@code failure} (a {@link CompletionException} is unwrapped first). */
    static Status of(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof InvalidRequestException) {
            return Status.BAD_REQUEST;
        }
        if (t instanceof NotEnoughCloudsException || t instanceof MetadataUnavailableException
                || t instanceof DeadlineExceededException) {
            return Status.SERVICE_UNAVAILABLE;
        }
        return Status.ERROR;
    }

    /** The cause of a {@link CompletionException} or {@link ExecutionException}; otherwise {@code failure}. */
    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
