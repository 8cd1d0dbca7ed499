/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The configuration is invalid or incomplete. The message names the property key (e.g. {@code hybris.f}),
 * the offending value and the fix.
 */
public class HybrisConfigurationException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public HybrisConfigurationException(String message) {
        super(message);
    }

    public HybrisConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
