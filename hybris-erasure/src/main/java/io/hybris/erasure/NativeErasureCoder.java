/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

/**
 * The Reed-Solomon coder backed by ISA-L through JNI: the same code as {@link JavaErasureCoder} (our coefficient
 * matrices, expanded by ISA-L's {@code ec_init_tables}), multiplied by ISA-L's SIMD {@code ec_encode_data}.
 * Create it through {@link NativeErasureCoderProvider}, which checks that the library loaded.
 */
public final class NativeErasureCoder extends MatrixCoder<byte[]> {

    NativeErasureCoder(int k, int m) {
        super(NativeErasureCoderProvider.NAME, k, m);
    }

    @Override
    byte[] compile(int[][] rows) {
        int targets = rows.length;
        int sources = rows[0].length;
        byte[] matrix = new byte[targets * sources];
        for (int t = 0; t < targets; t++) {
            for (int s = 0; s < sources; s++) {
                matrix[t * sources + s] = (byte) rows[t][s];
            }
        }
        byte[] tables = new byte[32 * sources * targets];
        IsalNative.initTables(sources, targets, matrix, tables);
        return tables;
    }

    @Override
    void apply(byte[] tables, byte[][] inputs, byte[][] outputs, int length) {
        IsalNative.encode(length, inputs.length, outputs.length, tables, inputs, outputs);
    }
}
