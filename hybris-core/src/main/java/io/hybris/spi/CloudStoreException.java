/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import io.hybris.HybrisException;

/** A {@link CloudStore} request failed. The message names the cloud id and the object key. */
public abstract class CloudStoreException extends HybrisException {
    private static final long serialVersionUID = 1L;
    private final String cloudId;

    protected CloudStoreException(String cloudId, String message, Throwable cause) {
        super("cloud '" + cloudId + "': " + message, cause);
        this.cloudId = cloudId;
    }

    /** The id of the cloud that failed. */
    public String cloudId() {
        return cloudId;
    }
}
