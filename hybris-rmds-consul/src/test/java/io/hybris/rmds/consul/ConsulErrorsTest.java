/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which Consul failures a call retries: no answer, rate limiting (HTTP 429) and server errors are transient, so a
 * caller gets {@link io.hybris.MetadataUnavailableException} once they outlast operation-timeout; every other status
 * is permanent.
 */
class ConsulErrorsTest {

    @ParameterizedTest
    @ValueSource(ints = {-1, 429, 500, 502, 503, 504})
    void noAnswerRateLimitingAndServerErrorsAreTransient(int status) {
        assertThat(ConsulErrors.isTransient(status)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 400, 401, 403, 404, 409, 413})
    void otherStatusesArePermanent(int status) {
        assertThat(ConsulErrors.isTransient(status)).isFalse();
    }
}
