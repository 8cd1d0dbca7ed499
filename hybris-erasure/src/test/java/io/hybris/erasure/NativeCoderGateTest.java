/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.erasure;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The native-coder gate of {@link Coders#requireNative()}: under the suite's switch a missing native coder is a
 * failure, never a skip; without it, a skip that says why; an available coder passes either way.
 */
class NativeCoderGateTest {

    @Test
    void aMissingNativeCoderFailsUnderTheSwitch() {
        assertThatThrownBy(() -> Coders.gate(Optional.of("no libisal2"), true))
                .isExactlyInstanceOf(AssertionFailedError.class)
                .hasMessageContainingAll("native erasure coder unavailable: no libisal2",
                        "install-native-deps.sh", "-Dhybris.test.require-env=true or CI=true");
    }

    @Test
    void aMissingNativeCoderIsSkippedWithItsReasonWithoutTheSwitch() {
        assertThatThrownBy(() -> Coders.gate(Optional.of("no libisal2"), false))
                .isExactlyInstanceOf(TestAbortedException.class)
                .hasMessageContaining("native erasure coder unavailable: no libisal2");
    }

    @Test
    void anAvailableNativeCoderPassesTheGateEitherWay() {
        assertThatCode(() -> Coders.gate(Optional.empty(), true)).doesNotThrowAnyException();
        assertThatCode(() -> Coders.gate(Optional.empty(), false)).doesNotThrowAnyException();
    }
}
