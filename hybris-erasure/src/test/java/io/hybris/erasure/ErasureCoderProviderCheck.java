/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks shared by the native tests. */
final class ErasureCoderProviderCheck {

    private ErasureCoderProviderCheck() {
    }

    /** The native provider's availability and its reason agree. */
    static void nativeIsReported() {
        var p = Coders.provider(NativeErasureCoderProvider.NAME);
        assertThat(p.isAvailable()).isEqualTo(p.unavailableReason().isEmpty());
    }
}
