/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.hybris.testkit.StreamingFixture.C;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** "No call throws anything outside HybrisException"; bad input is InvalidRequestException, as the sync call says. */
class BadInputEdgesTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void tputAsyncWithANullValueFailsLikeTput() {
        Hybris h = fx.open();
        Map<String, byte[]> values = new HashMap<>();
        values.put("a", "x".getBytes());
        values.put("b", null);

        assertThat(catchThrowable(() -> h.tput(C, values))).as("tput").isInstanceOf(InvalidRequestException.class);
        Throwable async = catchThrowable(() -> h.tputAsync(C, values).join());
        assertThat(async).as("tputAsync").isNotNull();
        Throwable cause = async instanceof java.util.concurrent.CompletionException ? async.getCause() : async;
        assertThat(cause).as("tputAsync").isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void getWithNullReadOptionsThrowsAHybrisException() {
        Hybris h = fx.open();
        assertThat(catchThrowable(() -> h.get(C, "k", (io.hybris.ReadOptions) null)))
                .isInstanceOf(io.hybris.HybrisException.class);
    }

    @Test
    void tputWithAPreconditionForANullKeyIsABadRequest() {
        Hybris h = fx.open();
        Map<String, io.hybris.PutOptions> conditions = new HashMap<>();
        conditions.put(null, io.hybris.PutOptions.ifAbsent());
        assertThat(catchThrowable(() -> h.tput(C, Map.of("a", "x".getBytes()), conditions)))
                .isInstanceOf(InvalidRequestException.class);
    }
}
