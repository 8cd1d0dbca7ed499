/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.Names;
import io.hybris.internal.UploadToken;

/**
 * An upload in parts of a new value of {@code key} in {@code container}, started by {@link PartUploads#start}.
 * Its {@code token} is all the state the upload needs between calls: store it (with the container and key) and
 * any client of the same deployment (same metadata store, clouds and key provider) can upload parts, complete or
 * abort it. The token holds the reserved version and, for encrypted values, the data key wrapped as metadata
 * holds it; it is not a secret beyond that. Immutable.
 *
 * @param container the container
 * @param key       the key the upload will write
 * @param token     the upload's state, from {@link PartUploads#start}
 */
public record PartUpload(String container, String key, String token) {
    /**
     * @throws InvalidRequestException if a name is invalid or the token is not one from {@link PartUploads#start}
     */
    public PartUpload {
        Names.checkContainer(container);
        Names.checkKey(key);
        UploadToken.decode(token);
    }

    /** The version the upload commits, as {@link VersionInfo#version()} will show it once completed. */
    public String version() {
        return UploadToken.decode(token).timestamp().toString();
    }
}
