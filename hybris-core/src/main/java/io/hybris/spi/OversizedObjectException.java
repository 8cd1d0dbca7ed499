/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * A cloud returned (or would return) more bytes than the caller allowed; the download was cut off at the limit.
 * A correct cloud never causes this for a Hybris object, so Hybris treats the cloud as faulty for this read.
 */
public class OversizedObjectException extends CloudStoreException {
    private static final long serialVersionUID = 1L;

    public OversizedObjectException(String cloudId, String objectKey, long maxBytes) {
        super(cloudId, "object '" + objectKey + "' is larger than the " + maxBytes
                + " bytes allowed; download aborted", null);
    }
}
