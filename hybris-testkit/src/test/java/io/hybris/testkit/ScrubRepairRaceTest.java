/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A delete that commits while a repair runs (docs/scrub.md) is never undone: not by the conditional update recording
 * a moved copy, nor by the rewrite of a chunked value whose chunk must move.
 */
class ScrubRepairRaceTest {
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(List<? extends CloudStore> clouds) {
        return opened.open(OpenedClients.config(store, clouds).deadline(Duration.ofSeconds(10))
                .chunkThreshold(CHUNK).chunkSize(CHUNK));
    }

    private static CloudStore refusingWrites(CloudStore cloud) {
        return new ForwardingCloudStore(cloud) {
            @Override
            public void put(String objectKey, byte[] value) {
                throw new TransientCloudException(cloud.id(), "injected: refuses writes");
            }
        };
    }

    private List<KeyHealth> scrub(Hybris h) {
        List<KeyHealth> seen = new ArrayList<>();
        h.scrub(ScrubOptions.listing().repair(true).listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.add(health);
            }
        }));
        return seen;
    }

    @Test
    void aDeleteCommittedBeforeTheRepairRecordsItsMoveStaysDeleted() {
        Hybris writer = open(raw);
        writer.put("c", "hot", "first".getBytes());
        assertThat(writer.describe("c", "hot").orElseThrow().clouds()).containsExactlyInAnyOrder("c0", "c1");
        String name = raw.get(1).list("").get(0).key();
        raw.get(1).delete(name);
        AtomicBoolean raced = new AtomicBoolean();
        CloudStore racingC2 = new ForwardingCloudStore(raw.get(2)) {
            @Override
            public void put(String objectKey, byte[] value) {
                super.put(objectKey, value);
                if (raced.compareAndSet(false, true)) {
                    writer.delete("c", "hot"); // commits before the repair records its move to c2
                }
            }
        };
        Hybris repairer = open(List.of(raw.get(0), refusingWrites(raw.get(1)), racingC2));

        List<KeyHealth> seen = scrub(repairer);

        assertThat(raced).isTrue();
        assertThat(seen).singleElement().satisfies(k -> assertThat(k.status()).isEqualTo(KeyHealth.Status.SUPERSEDED));
        assertThat(writer.get("c", "hot")).isEmpty();
        assertThat(repairer.describe("c", "hot")).isEmpty();
    }

    @Test
    void aDeleteCommittedWhileAChunkedValueIsRewrittenStaysDeleted() {
        Hybris writer = open(raw);
        byte[] value = new byte[2 * CHUNK + 10];
        writer.put("c", "big", new ByteArrayInputStream(value), value.length);
        // lose every chunk copy on c1, which then refuses them back: the value must be rewritten
        List<CloudObject> onC1 = raw.get(1).list("");
        List<String> chunks = onC1.stream().map(CloudObject::key)
                .filter(k -> io.hybris.spi.VersionName.parseChunk("hybris/", k).isPresent()).toList();
        assertThat(chunks).isNotEmpty();
        chunks.forEach(raw.get(1)::delete);
        AtomicBoolean raced = new AtomicBoolean();
        Thread scrubbing = Thread.currentThread();
        List<CloudStore> racing = new ArrayList<>();
        for (InMemoryCloudStore c : List.of(raw.get(0), raw.get(2))) {
            racing.add(new ForwardingCloudStore(c) {
                @Override
                public Optional<byte[]> get(String objectKey, long maxBytes) {
                    // the rewrite's read (on the client's threads, not the scrubbing one)
                    if (Thread.currentThread() != scrubbing && raced.compareAndSet(false, true)) {
                        writer.delete("c", "big");
                    }
                    return super.get(objectKey, maxBytes);
                }
            });
        }
        Hybris repairer = open(List.of(racing.get(0), refusingWrites(raw.get(1)), racing.get(1)));

        List<KeyHealth> seen = scrub(repairer);

        assertThat(raced).as("the delete committed while the rewrite read the value").isTrue();
        assertThat(seen).singleElement().satisfies(k -> assertThat(k.status()).as(k.toString())
                .isIn(KeyHealth.Status.SUPERSEDED, KeyHealth.Status.DEGRADED));
        assertThat(writer.get("c", "big")).isEmpty();
        assertThat(repairer.describe("c", "big")).isEmpty();
    }
}
