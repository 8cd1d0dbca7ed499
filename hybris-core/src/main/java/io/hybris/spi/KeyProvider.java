/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

/**
 * Custody of the data keys that encrypt values (paper §3.8, extended). Every stored version gets a fresh random
 * 256-bit data key; a {@code KeyProvider} decides what of it is recorded in the metadata store:
 * <ul>
 *   <li>{@code metadata} mode (the paper's behaviour): the data key itself, so whoever can read the metadata
 *       store can decrypt;</li>
 *   <li>{@code envelope} mode: the data key wrapped by a key-encryption key (KEK) that never enters the metadata
 *       store or a cloud, plus the KEK's id; a KMS or HSM plugs in here.</li>
 * </ul>
 * Implementations are thread-safe. The arrays passed to {@link #wrap} and {@link #unwrap} and those they return
 * belong to the provider: Hybris passes copies and copies what it gets back, zeroing only its own copies, so a
 * provider may keep them (a cache of unwrapped data keys, saving a KMS call per read) or return the same array
 * again. Calls run on the calling thread and are not bounded by {@code hybris.deadline}: give a KMS client its own
 * timeouts.
 */
public interface KeyProvider {

    /** The id of the KEK new versions are wrapped with; {@code ""} when data keys are stored unwrapped. */
    String currentKeyId();

    /**
     * Wraps a data key under the KEK {@code keyId}; the result is stored in metadata. The wrapping must be
     * authenticated and bound to {@code keyId}, so that a wrapped key presented with another id fails to unwrap.
     *
     * @throws io.hybris.KeyUnavailableException if there is no KEK with that id
     */
    byte[] wrap(String keyId, byte[] dataKey);

    /**
     * Recovers a data key wrapped by {@link #wrap}.
     *
     * @throws io.hybris.KeyUnavailableException   if there is no KEK with that id
     * @throws io.hybris.DecryptionFailedException if {@code wrapped} does not authenticate under that KEK
     */
    byte[] unwrap(String keyId, byte[] wrapped);
}
