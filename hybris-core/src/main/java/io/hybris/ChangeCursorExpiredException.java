/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The change feed no longer holds every change after a cursor: the metadata store's log was compacted past it
 * (it keeps a bounded number of commits per container, docs/changes.md). Resync: take
 * {@link Hybris#latestCursor}, list the container ({@link Hybris#list}), then read or subscribe from that cursor.
 */
public class ChangeCursorExpiredException extends HybrisException {
    private static final long serialVersionUID = 1L;

    private final transient ChangeCursor cursor;

    public ChangeCursorExpiredException(String message, ChangeCursor cursor) {
        super(message);
        this.cursor = cursor;
    }

    /** The cursor that is too old. */
    public ChangeCursor cursor() {
        return cursor;
    }
}
