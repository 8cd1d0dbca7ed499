/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

/**
 * The pure-Java Reed-Solomon coder: {@link JavaKernel} (byte tables or SWAR, by matrix shape). Runs
 * everywhere; see {@code docs/benchmarks.md} for its throughput next to the native coder.
 */
@SuppressWarnings("exports") // the kernel type parameter of the package-private base class is not API
public final class JavaErasureCoder extends MatrixCoder<JavaKernel> {

    /** Creates a coder for {@code k} data and {@code m} parity chunks. */
    public JavaErasureCoder(int k, int m) {
        super(JavaErasureCoderProvider.NAME, k, m);
    }

    @Override
    JavaKernel compile(int[][] rows) {
        return new JavaKernel(rows);
    }

    @Override
    void apply(JavaKernel kernel, byte[][] inputs, byte[][] outputs, int length) {
        kernel.apply(inputs, outputs, length);
    }
}
