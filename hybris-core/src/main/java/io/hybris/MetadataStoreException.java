/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The trusted metadata store (ZooKeeper, Consul, ...) failed a request for a reason other than a version
 * conflict, e.g. the request was denied by an ACL or the stored metadata could not be decoded.
 */
public class MetadataStoreException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public MetadataStoreException(String message) {
        super(message);
    }

    public MetadataStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
