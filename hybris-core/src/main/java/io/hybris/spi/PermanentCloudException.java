/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/** A cloud request failed in a way that retrying will not fix: bad credentials, missing bucket, access denied. */
public class PermanentCloudException extends CloudStoreException {
    private static final long serialVersionUID = 1L;

    public PermanentCloudException(String cloudId, String message) {
        super(cloudId, message, null);
    }

    public PermanentCloudException(String cloudId, String message, Throwable cause) {
        super(cloudId, message, cause);
    }
}
