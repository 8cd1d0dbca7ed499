/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listener's failure is contained whatever it throws: a listener whose check fails ({@link AssertionError}, as a
 * test's or an application's own assertion throws) or that misses a class at run time ({@link LinkageError}) changes
 * nothing in what the calls do, nor keeps the event from the listeners after it. Before, only a
 * {@link RuntimeException} was contained: the same failure thrown as an error turned every cloud request it reported
 * into a failed one (a PUT on three healthy clouds failed with {@link NotEnoughCloudsException}), and one from a
 * metadata call or the operation's event surfaced from a committed write as that raw error.
 */
class ListenerFailureContainmentTest {
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    @Test
    void aListenerThrowingAnAssertionErrorChangesNoOutcome() {
        assertCallsUnaffectedBy(() -> new AssertionError("listener check failed"));
    }

    @Test
    void aListenerMissingAClassChangesNoOutcome() {
        assertCallsUnaffectedBy(() -> new NoClassDefFoundError("io/micrometer/core/instrument/Counter"));
    }

    /**
     * A {@link WorkProgress} throwing an {@code Error} is ignored as one throwing an exception is: the sweep it follows
     * goes on to its end. It used to end the sweep (and a re-wrap) with the error.
     */
    @Test
    void aProgressListenerThrowingAnAssertionErrorDoesNotEndTheSweep() {
        InMemoryCloudStore[] clouds = {new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2")};
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(5)).probeInterval(Duration.ZERO).gcGrace(Duration.ZERO);
        for (InMemoryCloudStore c : clouds) {
            b.cloud(c);
        }
        try (Hybris h = Hybris.open(b.build())) {
            for (int i = 0; i < 5; i++) {
                h.put("box", "k" + i, VALUE);
            }
            AtomicInteger calls = new AtomicInteger();
            SweepReport r = h.sweepOrphans((done, total) -> {
                calls.incrementAndGet();
                throw new AssertionError("progress bar check failed");
            });
            assertThat(calls).as("called for each object, and threw each time").hasValueGreaterThan(1);
            assertThat(r.examined()).as("every object examined: 5 values on 2 clouds each").isEqualTo(10)
                    .isEqualTo(calls.get());
            assertThat(r.referenced()).isEqualTo(10);
        }
    }

    private static void assertCallsUnaffectedBy(java.util.function.Supplier<Error> error) {
        AtomicInteger thrown = new AtomicInteger();
        HybrisListener failing = new HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                thrown.incrementAndGet();
                throw error.get();
            }

            @Override
            public void metadataCall(MetadataOperation operation, MetadataOutcome outcome, Duration duration) {
                thrown.incrementAndGet();
                throw error.get();
            }

            @Override
            public void operation(Operation operation, String container, OperationOutcome outcome,
                                  Duration duration) {
                thrown.incrementAndGet();
                throw error.get();
            }
        };
        AtomicInteger operations = new AtomicInteger();
        HybrisListener after = new HybrisListener() {
            @Override
            public void operation(Operation operation, String container, OperationOutcome outcome,
                                  Duration duration) {
                operations.incrementAndGet();
            }
        };
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .deadline(Duration.ofSeconds(5)).probeInterval(Duration.ZERO)
                .listener(HybrisListener.of(failing, after));
        for (int i = 0; i < 3; i++) {
            b.cloud(new InMemoryCloudStore("c" + i));
        }
        try (Hybris h = Hybris.open(b.build())) {
            VersionInfo put = h.put("box", "k", VALUE);
            assertThat(put.clouds()).hasSize(2);
            assertThat(h.get("box", "k")).hasValue(VALUE);
            assertThat(h.delete("box", "k")).isPresent();
            assertThat(h.get("box", "k")).isEmpty();
        }
        assertThat(thrown).as("the listener was called, and threw").hasPositiveValue();
        assertThat(operations).as("the listener after it still got every event").hasValue(4);
    }
}
