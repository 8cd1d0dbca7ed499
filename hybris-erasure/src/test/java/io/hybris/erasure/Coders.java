/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import io.hybris.spi.ErasureCoder;
import io.hybris.spi.ErasureCoderProvider;

import java.util.Optional;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Test helpers: the providers as ServiceLoader finds them, and the native-coder gate, which follows the test suite's
 * one switch like {@code io.hybris.testkit.TestEnvironment}: with {@code -Dhybris.test.require-env=true} (what
 * {@code src/test/run-tests.sh} passes; {@code CI=true} in the environment counts the same) an unavailable native
 * coder fails the test, otherwise it is skipped with the reason.
 */
final class Coders {
    /** The switch; the same property {@code io.hybris.testkit.TestEnvironment} reads. */
    static final String REQUIRE_ENV = "hybris.test.require-env";

    private Coders() {
    }

    static ErasureCoderProvider provider(String name) {
        for (ErasureCoderProvider p : ServiceLoader.load(ErasureCoderProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no ErasureCoderProvider named " + name + " on the class path");
    }

    /**
     * The native provider; when it is unavailable, fails the test under the switch ({@link #environmentRequired()})
     * and skips it otherwise.
     */
    static ErasureCoderProvider requireNative() {
        ErasureCoderProvider p = provider(NativeErasureCoderProvider.NAME);
        gate(p.unavailableReason(), environmentRequired());
        return p;
    }

    /** Returns if {@code unavailableReason} is empty; else fails the test when {@code required}, skips it if not. */
    static void gate(Optional<String> unavailableReason, boolean required) {
        if (unavailableReason.isEmpty()) {
            return;
        }
        String message = "native erasure coder unavailable: " + unavailableReason.get()
                + " (run src/test/install-native-deps.sh, then rebuild hybris-erasure)";
        if (required) {
            fail(message + "; failing rather than skipping because -D" + REQUIRE_ENV + "=true or CI=true");
        }
        abort(message);
    }

    /** True under the switch: {@code -Dhybris.test.require-env=true}, or {@code CI=true} in the environment. */
    static boolean environmentRequired() {
        return Boolean.getBoolean(REQUIRE_ENV) || "true".equalsIgnoreCase(System.getenv("CI"));
    }

    static ErasureCoder java(int k, int m) {
        return provider(JavaErasureCoderProvider.NAME).create(k, m);
    }
}
