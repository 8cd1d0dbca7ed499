/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A completion of an upload in parts whose metadata update the store refuses before sending it (an
 * {@link InvalidRequestException}: ZooKeeper refuses an update above its jute.maxbuffer, and says "write smaller
 * application metadata") deleted everything under the version's name: the manifest and every chunk of the upload's
 * parts. Those are not the refused completion's own: they are the upload's, shared with any other completion of it.
 * A completion of the same upload with smaller metadata, on the wire meanwhile, then committed a value whose chunks
 * and manifest were gone (acknowledged, unreadable); and the retry the store's message asks for (complete again with
 * smaller metadata) failed, the parts lost.
 */
class RefusedCompletionKeepsPartsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The largest update the store accepts (as ZooKeeper's jute.maxbuffer, small here). */
    private static final int LIMIT = 1024;
    private final StreamingFixture fx = new StreamingFixture();
    private final GatedMetadataStore gate = new GatedMetadataStore(fx.metadata);

    @AfterEach
    void close() {
        gate.open();
        fx.close();
    }

    /** Refuses, before sending, an update larger than {@link #LIMIT}, as the ZooKeeper store does. */
    private static MetadataStore sizeLimited(MetadataStore delegate) {
        return new ForwardingMetadataStore(delegate) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                if (update.value().length > LIMIT) {
                    throw new InvalidRequestException("update of " + update.key() + " is " + update.value().length
                            + " bytes, more than the store accepts (" + LIMIT + "); nothing was sent: write smaller"
                            + " application metadata");
                }
                super.conditionalUpdate(update);
            }
        };
    }

    private static PutOptions largeMetadata() {
        return PutOptions.none().withMetadata(Map.of("note", "x".repeat(1800)));
    }

    private static byte[] expected() {
        byte[] v = new byte[CHUNK + 7];
        System.arraycopy(value(CHUNK + 1, 1), 0, v, 0, CHUNK + 1);
        System.arraycopy(value(6, 2), 0, v, CHUNK + 1, 6);
        return v;
    }

    private static List<UploadedPart> upload(PartUploads parts, PartUpload upload) {
        return List.of(parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK + 1, 1)), CHUNK + 1),
                parts.upload(upload, 2, new ByteArrayInputStream(value(6, 2)), 6));
    }

    @Test
    void aRefusedCompletionLeavesTheCompletionOnTheWireReadable() throws Exception {
        Hybris h = fx.open(b -> b.metadataStore(sizeLimited(gate)));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        List<UploadedPart> named = upload(parts, upload);

        // a completion with small metadata stored its manifest and sent its update: on the wire
        CompletableFuture<VersionInfo> small = CompletableFuture.supplyAsync(
                () -> parts.complete(upload, named, PutOptions.none()));
        assertThat(gate.awaitHeld(1, WAIT)).as("the completion's update is on the wire").isTrue();

        // another thread completes it with metadata the store refuses (nothing sent)
        assertThatThrownBy(() -> parts.complete(upload, named, largeMetadata()))
                .isInstanceOf(InvalidRequestException.class);

        gate.open(); // the first completion's update lands: acknowledged
        assertThat(small.get(WAIT.toSeconds(), TimeUnit.SECONDS).version()).isEqualTo(upload.version());
        h.close(); // waits for its background deletions

        Hybris reader = fx.open(b -> b.clientId("r1").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected()));
    }

    @Test
    void aCompletionRefusedForItsMetadataCanBeRetriedWithSmallerMetadata() {
        Hybris h = fx.open(b -> b.metadataStore(sizeLimited(fx.metadata)));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        List<UploadedPart> named = upload(parts, upload);

        assertThatThrownBy(() -> parts.complete(upload, named, largeMetadata()))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("smaller");
        h.close(); // waits for its background deletions

        // the retry the refusal asks for, from another client (this one closed)
        PartUploads retry = PartUploads.of(fx.open(b -> b.clientId("w2").metadataStore(sizeLimited(fx.metadata))));
        assertThat(retry.complete(upload, named, PutOptions.none()).version()).isEqualTo(upload.version());
        Hybris reader = fx.open(b -> b.clientId("r1").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected()));
    }

    /**
     * The same through a precondition that a concurrent put breaks after the completion read the key: its conditional
     * update conflicts, it fails (rightly), and it deleted the upload's chunks and manifest although another
     * completion of the upload, without a precondition, was on the wire and then committed over that put.
     */
    @Test
    void aCompletionWhosePreconditionBreaksLeavesTheCompletionOnTheWireReadable() throws Exception {
        Hybris other = fx.open(b -> b.clientId("p1"));
        String v0 = other.put(C, "k", value(10, 9)).version();
        Hybris h = fx.open(b -> b.metadataStore(gate));
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        List<UploadedPart> named = upload(parts, upload);

        // a completion without a precondition stored its manifest and sent its update: on the wire
        CompletableFuture<VersionInfo> first = CompletableFuture.supplyAsync(
                () -> parts.complete(upload, named, PutOptions.none()));
        assertThat(gate.awaitHeld(1, WAIT)).as("the completion's update is on the wire").isTrue();

        // another completion, if the key is still v0, on a client whose update a concurrent put overtakes
        java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
        MetadataStore overtaken = new ForwardingMetadataStore(fx.metadata) {
            @Override
            public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
                if (once.compareAndSet(false, true)) {
                    other.put(C, "k", value(11, 10)); // lands between the completion's read and its update
                }
                super.conditionalUpdate(update);
            }
        };
        Hybris w2 = fx.open(b -> b.clientId("w2").metadataStore(overtaken));
        assertThatThrownBy(() -> PartUploads.of(w2).complete(upload, named, PutOptions.ifMatch(v0)))
                .isInstanceOf(io.hybris.PreconditionFailedException.class);
        w2.close(); // waits for its background deletions

        gate.open(); // the first completion's update lands, ordered after the put: acknowledged
        assertThat(first.get(WAIT.toSeconds(), TimeUnit.SECONDS).version()).isEqualTo(upload.version());
        h.close();

        Hybris reader = fx.open(b -> b.clientId("r1").deadline(Duration.ofSeconds(3)));
        assertThat(reader.get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected()));
    }
}
