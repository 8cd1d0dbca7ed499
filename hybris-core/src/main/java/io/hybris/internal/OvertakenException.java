/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.PreconditionFailedException;
import io.hybris.spi.MetadataKey;

/**
 * A PUT without a precondition was overtaken, before its update committed, by a newer version it cannot be ordered
 * just before: a conditional write's, which observed the version it replaced (the PUT ordered between them would
 * have broken its precondition), or a deletion's. Nothing was committed and its uploads are deleted; a PUT of a
 * value in memory puts again, ordered after that version ({@link Engine}); a PUT of a value streamed in chunks
 * cannot read its stream again and fails with this exception.
 */
final class OvertakenException extends PreconditionFailedException {
    private static final long serialVersionUID = 1L;

    OvertakenException(MetadataKey key, Metadata now) {
        super("put of " + key + " was overtaken, before its update committed, by "
                + (now.isTombstone() ? "the deletion " : "the conditional write ") + now.timestamp()
                + ", which it cannot be ordered before; nothing was committed and its uploads are deleted; put again",
                key.key(), now.isTombstone() ? null : now.toVersionInfo());
    }
}
