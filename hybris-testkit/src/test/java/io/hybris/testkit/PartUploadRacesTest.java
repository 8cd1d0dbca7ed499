/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.PREFIX;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Uploads in parts ({@link PartUploads}) used by several callers at once: two completions of one upload racing (with
 * different parts), and what each leaves on the clouds.
 */
class PartUploadRacesTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    private List<Long> chunkIndexes(String key) {
        return fx.objectsOf(key).stream().flatMap(n -> VersionName.parseChunk(PREFIX, n).stream())
                .map(VersionName.Chunk::index).toList();
    }

    /**
     * Two clients complete one upload with different parts (a part uploaded twice, each client holding another
     * receipt): both store the version's manifest, the first commits and the second's conditional update then
     * conflicts. The loser must not delete what it shares with the winner (the version's manifest and chunks): the
     * committed value stays readable, exactly the winner's parts.
     */
    @Test
    void theLoserOfTwoCompletionsDeletesNothingOfTheWinnersValue() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris a = fx.open();
        Hybris b = fx.open(x -> x.clientId("w2").metadataStore(HeldUpdates.first(fx.metadata, u -> true, held, go,
                Duration.ofSeconds(20))));
        PartUploads onA = PartUploads.of(a);
        PartUploads onB = PartUploads.of(b);
        PartUpload upload = onA.start(C, "k");
        UploadedPart p1 = onA.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        UploadedPart p2 = onA.upload(upload, 2, new ByteArrayInputStream(value(100, 2)), 100);
        UploadedPart p2Again = onB.upload(upload, 2, new ByteArrayInputStream(value(100, 22)), 100);

        CompletableFuture<VersionInfo> loser = CompletableFuture.supplyAsync(() -> onB.complete(upload,
                List.of(p1, p2Again), PutOptions.none()));
        assertThat(held.await(20, TimeUnit.SECONDS)).as("B stored its manifest and is about to commit").isTrue();
        VersionInfo won = onA.complete(upload, List.of(p1, p2), PutOptions.none());
        go.countDown();
        assertThatThrownBy(() -> loser.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(PreconditionFailedException.class).hasMessageContaining("nothing was committed")
                .satisfies(e -> assertThat(((PreconditionFailedException) e).current())
                        .hasValueSatisfying(c -> assertThat(c.version()).isEqualTo(upload.version())));

        byte[] expected = new byte[CHUNK + 100];
        System.arraycopy(value(CHUNK, 1), 0, expected, 0, CHUNK);
        System.arraycopy(value(100, 2), 0, expected, CHUNK, 100);
        assertThat(won.version()).isEqualTo(upload.version());
        // wait for the deletions either completion set off, then read from a fresh client (no cached manifest)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(chunkIndexes("k")).as("p1 and p2 on"
                + " 2 clouds each").hasSize(4));
        Hybris reader = fx.open(x -> x.clientId("r1"));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
        assertThat(a.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
        assertThat(b.get(C, "k")).as("the loser reads the winner's value").hasValueSatisfying(v ->
                assertThat(v).isEqualTo(expected));
    }

    /**
     * A completion repeated by another client while the first one's commit is in flight (a retry after a timeout),
     * with the same parts: both store the same manifest, and both return the one version committed.
     */
    @Test
    void twoCompletionsWithTheSamePartsBothReturnTheOneVersion() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris a = fx.open();
        Hybris b = fx.open(x -> x.clientId("w2").metadataStore(HeldUpdates.first(fx.metadata, u -> true, held, go,
                Duration.ofSeconds(20))));
        PartUpload upload = PartUploads.of(a).start(C, "k");
        UploadedPart p1 = PartUploads.of(a).upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 3, 1)),
                CHUNK + 3);
        UploadedPart p2 = PartUploads.of(b).upload(upload, 2, new ByteArrayInputStream(value(9, 2)), 9);

        CompletableFuture<VersionInfo> second = CompletableFuture.supplyAsync(() -> PartUploads.of(b)
                .complete(upload, List.of(UploadedPart.fromBytes(p1.toBytes()), p2), PutOptions.none()));
        assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
        VersionInfo first = PartUploads.of(a).complete(upload, List.of(p1, p2), PutOptions.none());
        go.countDown();

        assertThat(second.get(20, TimeUnit.SECONDS).version()).isEqualTo(first.version())
                .isEqualTo(upload.version());
        byte[] expected = new byte[CHUNK + 12];
        System.arraycopy(value(CHUNK + 3, 1), 0, expected, 0, CHUNK + 3);
        System.arraycopy(value(9, 2), 0, expected, CHUNK + 3, 9);
        assertThat(fx.open(x -> x.clientId("r1")).get(C, "k")).hasValueSatisfying(v ->
                assertThat(v).isEqualTo(expected));
        assertThat(chunkIndexes("k")).as("part 1 in 2 chunks, part 2 in 1, each on 2 clouds").hasSize(6);
    }
}
