/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link ValueCipher#plaintextLength} is the inverse of {@link ValueCipher#ciphertextLength}. */
class ValueCipherLengthTest {
    private static final int[] CHUNK_SIZES = {ValueCipher.MIN_CHUNK_SIZE, 4096, ValueCipher.DEFAULT_CHUNK_SIZE,
            ValueCipher.MAX_CHUNK_SIZE};

    @Test
    void plaintextLengthInvertsCiphertextLengthAtEveryChunkBoundary() {
        for (int c : CHUNK_SIZES) {
            for (long p : new long[] {0, 1, c - 1L, c, c + 1L, 2L * c - 1, 2L * c, 2L * c + 1, 1000L * c + 17,
                    5L << 40}) {
                long ct = ValueCipher.ciphertextLength(p, c);
                assertThat(ValueCipher.plaintextLength(ct, c)).as("chunk %d, plaintext %d", c, p).isEqualTo(p);
            }
        }
    }

    @Test
    void everyCiphertextLengthMapsBackOrIsImpossible() {
        int c = ValueCipher.MIN_CHUNK_SIZE;
        int valid = 0;
        for (long ct = 0; ct < 5L * (c + ValueCipher.TAG_BYTES) + 100; ct++) {
            long p = ValueCipher.plaintextLength(ct, c);
            if (p >= 0) {
                valid++;
                assertThat(ValueCipher.ciphertextLength(p, c)).as("ciphertext %d", ct).isEqualTo(ct);
            } else {
                assertThat(p).isEqualTo(-1);
            }
        }
        // a ciphertext is impossible only between a full chunk and the next chunk's tag (16 lengths per chunk)
        // and below header + tag
        assertThat(valid).isGreaterThan(5 * c);
        assertThat(ValueCipher.plaintextLength(0, c)).isEqualTo(-1);
        assertThat(ValueCipher.plaintextLength(ValueCipher.HEADER_BYTES + ValueCipher.TAG_BYTES - 1, c)).isEqualTo(-1);
        assertThat(ValueCipher.plaintextLength(ValueCipher.HEADER_BYTES + ValueCipher.TAG_BYTES, c)).isZero();
        // one full chunk plus only part of a second tag
        assertThat(ValueCipher.plaintextLength(ValueCipher.HEADER_BYTES + c + ValueCipher.TAG_BYTES + 5, c))
                .isEqualTo(-1);
    }

    @Test
    void matchesWhatEncryptProduces() {
        SecureRandom random = new SecureRandom();
        byte[] key = ValueCipher.newDataKey(random);
        for (int p : new int[] {0, 1, 65535, 65536, 65537, 200_000}) {
            byte[] ct = ValueCipher.encrypt(key, new byte[p], random);
            assertThat(ValueCipher.plaintextLength(ct.length, ValueCipher.DEFAULT_CHUNK_SIZE)).isEqualTo(p);
        }
    }

    @Test
    void outOfRangeChunkSizesAreRefused() {
        assertThatThrownBy(() -> ValueCipher.plaintextLength(100, ValueCipher.MIN_CHUNK_SIZE - 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
