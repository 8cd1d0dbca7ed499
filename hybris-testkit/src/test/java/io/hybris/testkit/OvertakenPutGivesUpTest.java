/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.HybrisListener.Operation;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.PutOptions;
import io.hybris.PutOvertakenException;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A PUT without a precondition that a conditional write overtakes before its commit puts again after it (docs/sync.md)
 * — but not for ever: overtaken at every attempt, a value stored whole gives up when the call's one deadline has
 * passed ({@link DeadlineExceededException}), a value in chunks from an array or a file (each attempt an upload with
 * its own deadline) once the deadline has passed since it was first overtaken, with {@link PutOvertakenException}.
 * Nothing of it is committed. The overtaking writer here commits a write ifMatch the current version just before
 * each of the PUT's commits.
 */
class OvertakenPutGivesUpTest {
    private static final String C = "c";
    private static final int CHUNK = 64 << 10;
    private static final Duration DEADLINE = Duration.ofSeconds(1);

    enum Value { SMALL, LARGE_ARRAY, LARGE_FILE }

    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    @ParameterizedTest
    @EnumSource(Value.class)
    void aPutOvertakenAtEveryAttemptGivesUpAfterTheDeadline(Value kind, @TempDir Path dir) throws Exception {
        Hybris cond = opened.open(OpenedClients.config(store, clouds).clientId("z-cond"));
        VersionInfo base = cond.put(C, "k", "base".getBytes(StandardCharsets.UTF_8));
        AtomicReference<VersionInfo> latest = new AtomicReference<>(base);
        AtomicInteger overtakings = new AtomicInteger();
        ForwardingMetadataStore overtaking = new ForwardingMetadataStore(store) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                if (update.key().key().equals("k")) { // a write ifMatch commits first, every time
                    latest.set(cond.put(C, "k", ("cond " + overtakings.incrementAndGet())
                            .getBytes(StandardCharsets.UTF_8), PutOptions.ifMatch(latest.get().version())));
                }
                super.conditionalUpdate(update);
            }
        };
        EventRecorder events = new EventRecorder();
        Hybris plain = opened.open(OpenedClients.config(overtaking, clouds).clientId("a-plain").deadline(DEADLINE)
                .chunkThreshold(CHUNK).chunkSize(CHUNK).listener(events));
        byte[] value = kind == Value.SMALL ? "mine".getBytes(StandardCharsets.UTF_8) : random(3 * CHUNK + 5);
        Path file = Files.write(dir.resolve("value.bin"), value);

        long t0 = System.nanoTime();
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> kind == Value.LARGE_FILE
                ? plain.put(C, "k", file) : plain.put(C, "k", value));
        Throwable failure = catchThrowable(() -> put.get(30, TimeUnit.SECONDS));
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

        if (kind == Value.SMALL) { // one deadline bounds every attempt: a step after it has passed fails
            assertThat(failure).as("gave up, no timeout of the test").hasCauseInstanceOf(DeadlineExceededException.class);
        } else { // the deadline bounds each attempt, and the attempts from the first overtaking
            assertThat(failure).as("gave up, no timeout of the test").hasCauseInstanceOf(PutOvertakenException.class);
            assertThat(((PutOvertakenException) failure.getCause()).current().map(VersionInfo::version))
                    .hasValue(latest.get().version());
        }
        assertThat(overtakings.get()).as("put again while within the deadline").isGreaterThan(1);
        assertThat(elapsedMillis).as("about two deadlines at most").isLessThan(10_000);
        assertThat(cond.get(C, "k")).hasValue(("cond " + overtakings.get()).getBytes(StandardCharsets.UTF_8));
        assertThat(events.count(Operation.PUT, kind == Value.SMALL ? OperationOutcome.DEADLINE_EXCEEDED
                : OperationOutcome.ABORTED)).isEqualTo(1);
        assertThat(events.count(Operation.PUT, OperationOutcome.OK)).isZero();
    }

    private static byte[] random(int length) {
        byte[] b = new byte[length];
        new Random(7).nextBytes(b);
        return b;
    }
}
