/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * A write could not be stored on the {@code f+1} clouds it needs because too many clouds failed. Each cloud's
 * failure is attached with {@link #getSuppressed()}. Nothing was committed to metadata; uploads that did
 * succeed are deleted (best effort, otherwise collected by the orphan sweep).
 */
public class NotEnoughCloudsException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public NotEnoughCloudsException(String message) {
        super(message);
    }
}
