/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Java coder against the specification ({@link ReferenceCode}): round trips, every decoding subset, threads. */
class JavaErasureCoderTest {

    private static final int CHUNK = 24;

    @Test
    void roundTripsEveryShapeAndSize() {
        Random random = new Random(5);
        for (int k = 1; k <= 4; k++) {
            for (int m = 1; m <= 4; m++) {
                ErasureCoder coder = Coders.java(k, m);
                for (int size = 0; size <= k * CHUNK + 7; size++) {
                    byte[] value = new byte[size];
                    random.nextBytes(value);
                    byte[][] chunks = coder.encodeValue(value);
                    int length = coder.chunkLength(size);
                    assertThat(chunks).hasNumberOfRows(k + m);
                    for (byte[] chunk : chunks) {
                        assertThat(chunk).hasSize(length);
                    }
                    byte[][] data = Arrays.copyOf(chunks, k);
                    byte[][] expected = ReferenceCode.parity(data, m, length);
                    for (int i = 0; i < m; i++) {
                        assertThat(chunks[k + i]).as("parity %d of %d+%d, %d bytes", i, k, m, size)
                                .isEqualTo(expected[i]);
                    }
                    // lose the first min(m, k) data chunks and read the value back
                    boolean[] present = new boolean[k + m];
                    Arrays.fill(present, true);
                    byte[][] damaged = chunks.clone();
                    for (int i = 0; i < Math.min(m, k); i++) {
                        present[i] = false;
                        damaged[i] = null;
                    }
                    assertThat(coder.decodeValue(damaged, present, size)).as("%d+%d, %d bytes", k, m, size)
                            .isEqualTo(value);
                }
            }
        }
    }

    @Test
    void decodesFromEverySubsetOfKChunks() {
        Random random = new Random(7);
        for (int k = 1; k <= 4; k++) {
            for (int m = 1; m <= 4; m++) {
                ErasureCoder coder = Coders.java(k, m);
                int length = 8 * 5 + 3; // whole words and a tail
                byte[][] data = new byte[k][length];
                for (byte[] d : data) {
                    random.nextBytes(d);
                }
                byte[][] parity = new byte[m][length];
                coder.encode(data, parity, length);
                byte[][] all = new byte[k + m][];
                System.arraycopy(data, 0, all, 0, k);
                System.arraycopy(parity, 0, all, k, m);
                for (int[] subset : subsets(k + m, k)) {
                    boolean[] present = new boolean[k + m];
                    byte[][] chunks = new byte[k + m][];
                    for (int i : subset) {
                        present[i] = true;
                        chunks[i] = all[i].clone();
                    }
                    coder.reconstruct(chunks, present, length, false);
                    for (int i = 0; i < k + m; i++) {
                        assertThat(chunks[i]).as("chunk %d of %d+%d from %s", i, k, m, Arrays.toString(subset))
                                .isEqualTo(all[i]);
                    }
                }
            }
        }
    }

    /**
     * The kernel's loops after the JIT has compiled (and vectorised) them, not only interpreted: the same inputs
     * coded hundreds of times, every result checked against the specification.
     */
    @Test
    void matchesTheSpecificationOnceCompiled() {
        Random random = new Random(13);
        int[][] shapes = {{2, 1}, {4, 2}, {10, 4}};
        for (int[] shape : shapes) {
            int k = shape[0];
            int m = shape[1];
            int length = 3 * 4096 + 8 * 9 + 3;
            ErasureCoder coder = Coders.java(k, m);
            byte[][] data = new byte[k][length];
            for (byte[] d : data) {
                random.nextBytes(d);
            }
            byte[][] expected = ReferenceCode.parity(data, m, length);
            byte[][] parity = new byte[m][length];
            for (int round = 0; round < 300; round++) {
                coder.encode(data, parity, length);
                for (int i = 0; i < m; i++) {
                    assertThat(parity[i]).as("parity %d of %d+%d, round %d", i, k, m, round).isEqualTo(expected[i]);
                }
                byte[][] chunks = new byte[k + m][];
                boolean[] present = new boolean[k + m];
                Arrays.fill(present, true);
                System.arraycopy(data, 0, chunks, 0, k);
                System.arraycopy(parity, 0, chunks, k, m);
                int lost = round % k;
                present[lost] = false;
                chunks[lost] = null;
                coder.reconstruct(chunks, present, length, true);
                assertThat(chunks[lost]).as("data %d of %d+%d, round %d", lost, k, m, round).isEqualTo(data[lost]);
            }
        }
    }

    @Test
    void largeShapesMatchTheSpecification() {
        Random random = new Random(11);
        int[][] shapes = {{5, 3}, {9, 3}, {10, 4}, {13, 7}, {17, 2}, {200, 56}, {1, 0}, {3, 0}};
        for (int[] shape : shapes) {
            int k = shape[0];
            int m = shape[1];
            int length = shape[0] > 20 ? 8 * 17 + 5 : 3 * 8192 + 8 * 17 + 5; // several 4 KiB blocks, a tail
            ErasureCoder coder = Coders.java(k, m);
            byte[][] data = new byte[k][length];
            for (byte[] d : data) {
                random.nextBytes(d);
            }
            byte[][] parity = new byte[m][length];
            coder.encode(data, parity, length);
            byte[][] expected = ReferenceCode.parity(data, m, length);
            for (int i = 0; i < m; i++) {
                assertThat(parity[i]).as("parity %d of %d+%d", i, k, m).isEqualTo(expected[i]);
            }
            if (m > 0) {
                // lose one data chunk: a single target computed from k sources
                byte[][] one = new byte[k + m][];
                boolean[] onePresent = new boolean[k + m];
                for (int i = 0; i < k + m; i++) {
                    one[i] = i < k ? data[i].clone() : parity[i - k].clone();
                    onePresent[i] = i != k / 2;
                }
                one[k / 2] = null;
                coder.reconstruct(one, onePresent, length, true);
                assertThat(one[k / 2]).as("data %d of %d+%d alone", k / 2, k, m).isEqualTo(data[k / 2]);
                // lose m chunks spread over data and parity
                byte[][] chunks = new byte[k + m][];
                boolean[] present = new boolean[k + m];
                for (int i = 0; i < k + m; i++) {
                    chunks[i] = i < k ? data[i].clone() : parity[i - k].clone();
                    present[i] = true;
                }
                for (int lost = 0; lost < m; lost++) {
                    int i = (lost * 7) % (k + m);
                    while (!present[i]) {
                        i = (i + 1) % (k + m);
                    }
                    present[i] = false;
                    chunks[i] = null;
                }
                coder.reconstruct(chunks, present, length, false);
                for (int i = 0; i < k; i++) {
                    assertThat(chunks[i]).as("data %d of %d+%d", i, k, m).isEqualTo(data[i]);
                }
                for (int i = 0; i < m; i++) {
                    assertThat(chunks[k + i]).as("parity %d of %d+%d", i, k, m).isEqualTo(parity[i]);
                }
            }
        }
    }

    @Test
    void dataOnlyReconstructionLeavesMissingParityAlone() {
        ErasureCoder coder = Coders.java(2, 2);
        byte[] value = "dataOnly leaves parity alone!".getBytes();
        byte[][] chunks = coder.encodeValue(value);
        boolean[] present = {false, true, true, false};
        chunks[0] = null;
        chunks[3] = null;
        coder.reconstruct(chunks, present, coder.chunkLength(value.length), true);
        assertThat(chunks[3]).isNull();
        assertThat(coder.decodeValue(chunks, new boolean[] {true, true, true, false}, value.length))
                .isEqualTo(value);
    }

    @Test
    void decodeValueRefusesAChunkOfAnotherLength() {
        ErasureCoder coder = Coders.java(2, 1);
        byte[] value = "eleven byte".getBytes();
        byte[][] chunks = coder.encodeValue(value);
        boolean[] present = {false, true, true};
        byte[][] longer = {null, Arrays.copyOf(chunks[1], chunks[1].length + 1), chunks[2]};
        assertThatThrownBy(() -> coder.decodeValue(longer, present, value.length))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 1");
        byte[][] shorter = {null, chunks[1], Arrays.copyOf(chunks[2], chunks[2].length - 1)};
        assertThatThrownBy(() -> coder.decodeValue(shorter, present, value.length))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chunk 2");
    }

    /**
     * The decoding matrices are cached per erasure pattern: one coder decoding from the same k sources for different
     * targets (another parity chunk lost, or data only) must not reuse the matrix of the first pattern.
     */
    @Test
    void patternsWithTheSameSourcesButOtherTargetsDecodeCorrectly() {
        ErasureCoder coder = Coders.java(2, 3);
        int length = 8 * 3 + 5; // whole words and a tail
        Random random = new Random(17);
        byte[][] all = new byte[5][];
        byte[][] data = {new byte[length], new byte[length]};
        random.nextBytes(data[0]);
        random.nextBytes(data[1]);
        byte[][] parity = new byte[3][length];
        coder.encode(data, parity, length);
        System.arraycopy(data, 0, all, 0, 2);
        System.arraycopy(parity, 0, all, 2, 3);
        // sources {1, 2} every time; the chunks restored differ
        for (int[] lost : new int[][] {{0, 3}, {0, 4}, {0, 3, 4}}) {
            byte[][] chunks = all.clone();
            boolean[] present = {true, true, true, true, true};
            for (int i : lost) {
                chunks[i] = null;
                present[i] = false;
            }
            coder.reconstruct(chunks, present, length, false);
            for (int i : lost) {
                assertThat(chunks[i]).as("chunk %d with %s lost", i, Arrays.toString(lost)).isEqualTo(all[i]);
            }
            byte[][] dataOnly = all.clone();
            for (int i : lost) {
                dataOnly[i] = null;
            }
            coder.reconstruct(dataOnly, present, length, true);
            assertThat(dataOnly[0]).as("data 0 alone with %s lost", Arrays.toString(lost)).isEqualTo(all[0]);
        }
    }

    @Test
    void concurrentCallsShareOneCoder() throws Exception {
        ErasureCoder coder = Coders.java(4, 2);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int round = 0; round < 50; round++) {
                        byte[] value = new byte[random.nextInt(5000)];
                        random.nextBytes(value);
                        byte[][] chunks = coder.encodeValue(value);
                        boolean[] present = {true, true, true, true, true, true};
                        int a = random.nextInt(6);
                        int b = (a + 1 + random.nextInt(5)) % 6;
                        present[a] = false;
                        present[b] = false;
                        chunks[a] = null;
                        chunks[b] = null;
                        if (!Arrays.equals(coder.decodeValue(chunks, present, value.length), value)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static List<int[]> subsets(int n, int size) {
        List<int[]> out = new ArrayList<>();
        collect(n, size, 0, new int[size], 0, out);
        return out;
    }

    private static void collect(int n, int size, int from, int[] current, int filled, List<int[]> out) {
        if (filled == size) {
            out.add(current.clone());
            return;
        }
        for (int i = from; i < n; i++) {
            current[filled] = i;
            collect(n, size, i + 1, current, filled + 1, out);
        }
    }
}
