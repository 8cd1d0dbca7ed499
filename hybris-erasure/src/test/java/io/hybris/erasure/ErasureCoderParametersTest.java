/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.ServiceLoader;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad parameters and bad arguments are rejected with messages that say what was wrong. */
class ErasureCoderParametersTest {

    @Test
    void bothProvidersAreRegistered() {
        TreeSet<String> names = new TreeSet<>();
        for (ErasureCoderProvider p : ServiceLoader.load(ErasureCoderProvider.class)) {
            names.add(p.name());
        }
        assertThat(names).containsExactly("java", "native");
        assertThat(Coders.provider("java").isAvailable()).isTrue();
        assertThat(Coders.provider("java").unavailableReason()).isEmpty();
    }

    @Test
    void rejectsBadShapesInTheJavaCoder() {
        ErasureCoderProvider java = Coders.provider("java");
        assertThatThrownBy(() -> java.create(0, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("erasure coding needs at least 1 data chunk (k >= 1), got k=0");
        assertThatThrownBy(() -> java.create(2, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the number of parity chunks cannot be negative, got m=-1");
        assertThatThrownBy(() -> java.create(250, 7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Reed-Solomon over GF(2^8) supports at most 256 chunks in total, got k=250 + m=7 = 257;"
                        + " use fewer data chunks (k) or fewer parity chunks (m)");
        assertThat(java.create(250, 6).totalChunks()).isEqualTo(256);
    }

    @Test
    void rejectsBadShapesInTheNativeProviderEvenWhenUnavailable() {
        ErasureCoderProvider nativeProvider = Coders.provider("native");
        assertThatThrownBy(() -> nativeProvider.create(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k >= 1");
        assertThatThrownBy(() -> nativeProvider.create(200, 57)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 256 chunks");
    }

    @Test
    void rejectsMismatchedArguments() {
        ErasureCoder coder = Coders.java(2, 1);
        assertThatThrownBy(() -> coder.encode(new byte[1][4], new byte[1][4], 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("expected 2 data chunks, got 1");
        assertThatThrownBy(() -> coder.encode(new byte[2][4], new byte[1][3], 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parity chunk 0 is 3 bytes, needs at least 4 bytes");
        assertThatThrownBy(() -> coder.encode(new byte[2][4], new byte[1][4], -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("chunk length cannot be negative, got -1");
        byte[][] chunks = {new byte[4], null, null};
        assertThatThrownBy(() -> coder.reconstruct(chunks, new boolean[] {true, false, false}, 4, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot decode: 1 chunks present, at least k=2 needed");
        assertThatThrownBy(() -> coder.decodeValue(new byte[][] {new byte[3], new byte[4], new byte[4]},
                new boolean[] {true, true, true}, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chunk 0 should be 4 bytes for a value of 8 bytes, is 3 bytes");
    }
}
