package io.hybris.erasure;

/**
 * The pure-Java Reed-Solomon coder: {@link SwarKernel} for whole 8-byte words, byte tables for the rest. Runs
 * everywhere; see {@code docs/benchmarks.md} for its throughput next to the native coder.
 */
public final class JavaErasureCoder extends MatrixCoder<SwarKernel> {

    /** Creates a coder for {@code k} data and {@code m} parity chunks. */
    public JavaErasureCoder(int k, int m) {
        super(JavaErasureCoderProvider.NAME, k, m);
    }

    @Override
    SwarKernel compile(int[][] rows) {
        return new SwarKernel(rows);
    }

    @Override
    void apply(SwarKernel kernel, byte[][] inputs, byte[][] outputs, int length) {
        kernel.apply(inputs, outputs, length);
    }
}
