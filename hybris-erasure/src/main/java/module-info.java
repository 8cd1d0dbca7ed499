/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** Erasure coders for Hybris: Reed-Solomon over GF(2^8) in Java, and ISA-L through JNI where it is installed. */
module io.hybris.erasure {
    requires transitive io.hybris.core;
    requires org.slf4j;

    exports io.hybris.erasure;

    provides io.hybris.spi.ErasureCoderProvider with
            io.hybris.erasure.JavaErasureCoderProvider,
            io.hybris.erasure.NativeErasureCoderProvider;
}
