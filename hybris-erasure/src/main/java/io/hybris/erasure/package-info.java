/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Reed-Solomon erasure coding for Hybris: {@link io.hybris.erasure.JavaErasureCoder} (pure Java, SWAR) and
 * {@link io.hybris.erasure.NativeErasureCoder} (ISA-L through JNI), both implementing the fixed code of
 * {@link io.hybris.spi.ErasureCoder} and registered as {@link io.hybris.spi.ErasureCoderProvider}s.
 */
package io.hybris.erasure;
