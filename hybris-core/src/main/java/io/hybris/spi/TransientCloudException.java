/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/** A cloud request failed in a way that may succeed if retried: timeout, throttling, server error, outage. */
public class TransientCloudException extends CloudStoreException {
    private static final long serialVersionUID = 1L;

    public TransientCloudException(String cloudId, String message) {
        super(cloudId, message, null);
    }

    public TransientCloudException(String cloudId, String message, Throwable cause) {
        super(cloudId, message, cause);
    }
}
