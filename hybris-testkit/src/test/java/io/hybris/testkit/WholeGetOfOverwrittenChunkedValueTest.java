/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.ReadSettings;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code get} into an array (not a stream: the caller sees no chunk) of a chunked value that another client
 * overwrites, and whose chunks garbage collection deletes, between the reader's metadata read and its chunk reads:
 * a linearizable GET returns the version it read or the newer one, never an error, as it does for a value stored
 * whole (whose read falls back to the worst case, which re-reads the metadata).
 */
class WholeGetOfOverwrittenChunkedValueTest {
    private static final int L = 2 * CHUNK + 5;

    private final CallGate gate = new CallGate();
    private final StreamingFixture fx = new StreamingFixture(
            c -> new HeldGets(c, gate, name -> StreamingFixture.chunkIndex(name).isPresent()));

    @AfterEach
    void close() {
        gate.release();
        fx.close();
    }

    @Test
    void aGetWhoseChunksWereCollectedMidReadReturnsTheNewerValue() throws Exception {
        Hybris writer = fx.open();
        // no chunk read alongside the manifest: a chunk request held means the old manifest was read
        Hybris reader = fx.open(b -> b.clientId("r1").reads(ReadSettings.builder().hedge(false).speculate(false)
                .build()));
        byte[] older = value(L, 1);
        byte[] newer = value(L, 2);
        writer.put(C, "k", new ByteArrayInputStream(older), L);

        gate.hold();
        CompletableFuture<Optional<byte[]>> get = CompletableFuture.supplyAsync(() -> reader.get(C, "k"));
        await().atMost(Duration.ofSeconds(10)).until(() -> gate.held() >= 1); // the old version's chunks asked for

        VersionInfo replaced = writer.put(C, "k", new ByteArrayInputStream(newer), L);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(fx.objectsOf("k"))
                .allSatisfy(n -> assertThat(n).contains("#" + replaced.version())));
        gate.release();

        assertThat(get.get(20, TimeUnit.SECONDS)).hasValueSatisfying(v -> assertThat(v).isEqualTo(newer));
    }
}
