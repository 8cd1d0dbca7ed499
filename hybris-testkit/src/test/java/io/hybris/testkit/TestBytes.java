/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.nio.charset.StandardCharsets;

/** Small helpers shared by the decorator tests. */
final class TestBytes {
    private TestBytes() {
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
