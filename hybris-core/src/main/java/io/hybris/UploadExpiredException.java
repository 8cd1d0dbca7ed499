/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * An upload in parts ({@link PartUploads}) could not complete because it stored nothing for half of
 * {@code hybris.gc.grace}, or a chunk of its parts is on no cloud: the orphan sweep may have deleted its parts
 * meanwhile, so nothing was committed. Upload the value again; complete uploads within that time of their last
 * part, or raise the grace period.
 */
public class UploadExpiredException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public UploadExpiredException(String message) {
        super(message);
    }
}
