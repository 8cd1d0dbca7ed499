/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native (ISA-L) coder produces exactly the Java coder's chunks and decodes them, and the other way round.
 * Under the suite's switch ({@code -Dhybris.test.require-env=true}, set by {@code src/test/run-tests.sh}, or
 * {@code CI=true}) an unavailable native coder fails these tests; otherwise they are skipped with the reason.
 */
class NativeErasureCoderTest {

    @Test
    void nativeAndJavaProduceIdenticalChunks() {
        ErasureCoderProviderCheck.nativeIsReported();
        var nativeProvider = Coders.requireNative();
        Random random = new Random(13);
        int[][] shapes = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {4, 4}, {10, 4}, {17, 3}, {200, 56}};
        int[] sizes = {0, 1, 7, 8, 63, 64, 65, 1000, 4096 * 3 + 17, (1 << 20) + 3};
        for (int[] shape : shapes) {
            ErasureCoder javaCoder = Coders.java(shape[0], shape[1]);
            ErasureCoder nativeCoder = nativeProvider.create(shape[0], shape[1]);
            assertThat(nativeCoder.name()).isEqualTo("native");
            for (int size : sizes) {
                if (shape[0] > 20 && size > 100_000) {
                    continue;
                }
                byte[] value = new byte[size];
                random.nextBytes(value);
                byte[][] fromJava = javaCoder.encodeValue(value);
                byte[][] fromNative = nativeCoder.encodeValue(value);
                for (int i = 0; i < fromJava.length; i++) {
                    assertThat(fromNative[i]).as("chunk %d of %d+%d, %d bytes", i, shape[0], shape[1], size)
                            .isEqualTo(fromJava[i]);
                }
            }
        }
    }

    @Test
    void eachDecodesTheOthersChunksFromEverySubset() {
        var nativeProvider = Coders.requireNative();
        Random random = new Random(17);
        for (int k = 1; k <= 4; k++) {
            for (int m = 1; m <= 4; m++) {
                ErasureCoder javaCoder = Coders.java(k, m);
                ErasureCoder nativeCoder = nativeProvider.create(k, m);
                byte[] value = new byte[k * 1000 + 3];
                random.nextBytes(value);
                byte[][] all = nativeCoder.encodeValue(value);
                for (int[] subset : JavaErasureCoderTest.subsets(k + m, k)) {
                    for (ErasureCoder decoder : new ErasureCoder[] {javaCoder, nativeCoder}) {
                        boolean[] present = new boolean[k + m];
                        byte[][] chunks = new byte[k + m][];
                        for (int i : subset) {
                            present[i] = true;
                            chunks[i] = all[i].clone();
                        }
                        decoder.reconstruct(chunks, present, all[0].length, false);
                        for (int i = 0; i < k + m; i++) {
                            assertThat(chunks[i]).as("%s: chunk %d of %d+%d from %s", decoder.name(), i, k, m,
                                    Arrays.toString(subset)).isEqualTo(all[i]);
                        }
                    }
                }
            }
        }
    }
}
