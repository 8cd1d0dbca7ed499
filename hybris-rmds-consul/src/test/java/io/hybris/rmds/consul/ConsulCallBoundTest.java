/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link ConsulMetadataStore#callTimeBound()} holds for a write when Consul answers every request, slowly (each just
 * within read-timeout, through a {@link SlowAnswersProxy}): a write that needs several requests (its container's
 * change-log head, then the transaction) ends within the bound, answered or failed with an unknown outcome. Hybris
 * runs a call on its caller's thread when the call's deadline exceeds the bound, so a longer call would overrun the
 * caller's deadline.
 */
class ConsulCallBoundTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    private static final Duration CONNECT = Duration.ofMillis(200);
    private static final Duration OPERATION = Duration.ofMillis(200);
    private static final Duration READ = Duration.ofSeconds(2);
    /** Under the read timeout: no request fails, each takes this long. */
    private static final Duration ANSWER_DELAY = Duration.ofMillis(1700);

    private static ConsulMetadataStore store(SlowAnswersProxy proxy) {
        return ConsulMetadataStore.builder().address(proxy.address()).keyPrefix(CONSUL.uniquePrefix("bound-"))
                .connectTimeout(CONNECT).operationTimeout(OPERATION).readTimeout(READ).build();
    }

    @Test
    void theFirstWriteToAContainerEndsWithinTheBoundWhenConsulAnswersSlowly() throws Exception {
        try (SlowAnswersProxy proxy = new SlowAnswersProxy(CONSUL.address());
             ConsulMetadataStore store = store(proxy)) {
            proxy.delayAnswers(ANSWER_DELAY);
            endsWithinTheBound(store, () -> store.conditionalUpdate(
                    new MetadataUpdate(new MetadataKey("fresh", "k"), bytes("v"), MetadataVersion.ABSENT)));
        }
    }

    @Test
    void anAtomicUpdateAcrossContainersEndsWithinTheBoundWhenConsulAnswersSlowly() throws Exception {
        try (SlowAnswersProxy proxy = new SlowAnswersProxy(CONSUL.address());
             ConsulMetadataStore store = store(proxy)) {
            proxy.delayAnswers(ANSWER_DELAY);
            endsWithinTheBound(store, () -> store.conditionalUpdateAll(List.of(
                    new MetadataUpdate(new MetadataKey("one", "k"), bytes("v"), MetadataVersion.ABSENT),
                    new MetadataUpdate(new MetadataKey("two", "k"), bytes("v"), MetadataVersion.ABSENT))));
        }
    }

    private static void endsWithinTheBound(ConsulMetadataStore store, ThrowingCall call) {
        Duration bound = store.callTimeBound().orElseThrow();
        long t0 = System.nanoTime();
        Throwable failure = catchThrowable(call::run);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("the write took %s, its store's call-time bound is %s", took, bound)
                .isLessThanOrEqualTo(bound);
        if (failure != null) {
            assertThat(failure).isInstanceOf(MetadataUnavailableException.class)
                    .hasMessageContaining("outcome is unknown");
        }
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Exception;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
