/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Encryption of values and custody of their keys (paper §3.8, extended; DESIGN.md §4 "Confidentiality").
 * <ul>
 *   <li>{@link io.hybris.crypto.ValueCipher}: chunked AES-256-GCM of one stored version under a fresh data key;
 *       the format is versioned and every chunk is authenticated with its index and a final flag.</li>
 *   <li>{@link io.hybris.crypto.MetadataKeyProvider}: the data key is stored in the metadata entry
 *       ({@code hybris.crypto.mode=metadata}).</li>
 *   <li>{@link io.hybris.crypto.EnvelopeKeyProvider}: the data key is wrapped under a key-encryption key from a
 *       PKCS#12 keystore or an environment variable ({@code hybris.crypto.mode=envelope}).</li>
 * </ul>
 * Only the JDK's providers are used (AES-NI and CLMUL intrinsics). Everything here is thread-safe.
 *
 * <pre>{@code
 * KeyProvider keys = EnvelopeKeyProvider.fromEncoded(System.getenv("HYBRIS_CRYPTO_KEK_KEYS"), "kek-2026");
 * byte[] dataKey = ValueCipher.newDataKey(random);
 * byte[] stored = ValueCipher.encrypt(dataKey, value, random);            // to the clouds
 * byte[] custody = keys.wrap(keys.currentKeyId(), dataKey);             // to the metadata, with the id
 * byte[] value2 = ValueCipher.decrypt(keys.unwrap(keyId, custody), stored);
 * }</pre>
 */
package io.hybris.crypto;
