/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * The classes cloud providers price requests by. Every cloud call Hybris makes falls in one: a
 * {@code CloudStore.put} is one {@link #PUT_LIST} request; a {@code CloudStore.list} is one {@link #PUT_LIST}
 * request per page of {@link #LIST_PAGE} objects (the page size of S3 and GCS; Azure's is larger, so this
 * over-counts there); a {@code get} is one {@link #GET_HEAD}; a {@code delete} one {@link #DELETE}.
 */
public enum RequestClass {
    /** Writes and listings: S3's "PUT, COPY, POST, LIST", GCS's class A, Azure's write and list operations. */
    PUT_LIST,
    /** Reads: S3's "GET, SELECT and all other", GCS's class B, Azure's read operations. */
    GET_HEAD,
    /** Deletions (free on S3, GCS and Azure today). */
    DELETE;

    /** Objects per listing request, as counted. */
    public static final int LIST_PAGE = 1000;

    /** The requests a listing that returned {@code objects} objects is counted as: at least one. */
    public static long listRequests(long objects) {
        return Math.max(1, (objects + LIST_PAGE - 1) / LIST_PAGE);
    }
}
