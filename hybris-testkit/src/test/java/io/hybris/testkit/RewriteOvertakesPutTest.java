/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A migration rewrites a chunked value whose chunk must move as a new version with the same bytes (docs/scrub.md).
 * That rewrite is no user write: a user PUT that read the version it rewrites, and commits after it, must be ordered
 * after the rewrite, never "overwritten" by it — whatever the two clients' ids. Before the fix, a rewriting client
 * whose id sorted after the writer's made the writer's acknowledged PUT lose to the old value.
 */
class RewriteOvertakesPutTest {
    private static final int CHUNK = 64 << 10;
    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(4);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId, MetadataStore metadata, List<? extends CloudStore> clouds) {
        return opened.open(OpenedClients.config(metadata, clouds).clientId(clientId).deadline(Duration.ofSeconds(10))
                .chunkThreshold(CHUNK).chunkSize(CHUNK));
    }

    @Test
    void aPutCommittedAfterAMigrationRewroteTheValueItReadIsNotLost() throws Exception {
        assertPutSurvivesRewrite("aaaaaaaa", "zzzzzzzz");
    }

    @Test
    void aPutCommittedAfterAMigrationRewroteTheValueItReadIsNotLostWhateverTheIdsOrder() throws Exception {
        assertPutSurvivesRewrite("zzzzzzzz", "aaaaaaaa");
    }

    @Test
    void aDeleteCommittedAfterAMigrationRewroteTheValueItReadLeavesTheKeyDeleted() throws Exception {
        for (String[] ids : new String[][] {{"aaaaaaaa", "zzzzzzzz"}, {"zzzzzzzz", "aaaaaaaa"}}) {
            String key = "big-" + ids[0].charAt(0);
            Hybris seeder = open("seeder", store, raw);
            byte[] big = new byte[2 * CHUNK + 10];
            seeder.put("c", key, new ByteArrayInputStream(big), big.length);
            GatedMetadataStore gate = new GatedMetadataStore(store);
            Hybris deleter = open(ids[0], gate, raw);
            Hybris migrator = open(ids[1], store, raw);

            CompletableFuture<java.util.Optional<VersionInfo>> delete = CompletableFuture.supplyAsync(
                    () -> deleter.delete("c", key));
            assertThat(gate.awaitHeld(1, Duration.ofSeconds(10))).as("the delete's commit is held").isTrue();
            assertThat(migrate(migrator, ScrubOptions.listing().containers("c").prefix(key))).singleElement()
                    .satisfies(k -> assertThat(k.status()).as(k.toString()).isEqualTo(KeyHealth.Status.REPAIRED));
            gate.open();

            assertThat(delete.get(10, TimeUnit.SECONDS)).as("the delete deleted the value").isPresent();
            assertThat(migrator.get("c", key)).as("ids %s", String.join(", ", ids)).isEmpty();
            assertThat(migrator.describe("c", key)).isEmpty();
            migrator.sweepOrphans();
            for (InMemoryCloudStore c : raw) {
                assertThat(c.list("hybris/c/" + key + "#")).as("objects of %s on %s", key, c.id()).isEmpty();
            }
        }
    }

    /** Migrates every copy off c0 onto c3; returns each key's health. */
    private static List<KeyHealth> migrate(Hybris migrator, ScrubOptions options) {
        List<KeyHealth> seen = new ArrayList<>();
        migrator.migrate("c0", "c3", options.listener(new ScrubListener() {
            @Override
            public void key(KeyHealth health) {
                seen.add(health);
            }
        }));
        return seen;
    }

    private void assertPutSurvivesRewrite(String writerId, String migratorId) throws Exception {
        Hybris seeder = open("seeder", store, raw);
        byte[] big = new byte[2 * CHUNK + 10];
        new java.util.Random(7).nextBytes(big);
        VersionInfo first = seeder.put("c", "big", new ByteArrayInputStream(big), big.length);
        assertThat(first.clouds()).contains("c0");
        GatedMetadataStore gate = new GatedMetadataStore(store);
        Hybris writer = open(writerId, gate, raw);
        Hybris migrator = open(migratorId, store, raw);

        // the writer reads the version and uploads; its commit is held while the migration rewrites the value
        byte[] fresh = "the newer value".getBytes(StandardCharsets.UTF_8);
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> writer.put("c", "big", fresh));
        assertThat(gate.awaitHeld(1, Duration.ofSeconds(10))).as("the writer's commit is held").isTrue();
        assertThat(migrate(migrator, ScrubOptions.listing())).singleElement()
                .satisfies(k -> assertThat(k.status()).as(k.toString()).isEqualTo(KeyHealth.Status.REPAIRED));
        assertThat(migrator.describe("c", "big").orElseThrow().version()).as("rewritten as a new version")
                .isNotEqualTo(first.version());
        gate.open();
        VersionInfo acknowledged = put.get(10, TimeUnit.SECONDS);

        assertThat(migrator.get("c", "big")).as("the acknowledged PUT is the value").hasValue(fresh);
        assertThat(migrator.describe("c", "big").orElseThrow().version()).isEqualTo(acknowledged.version());
        // the rewritten version was superseded by the PUT and collected; the sweep takes the replaced version's
        // manifest left on the cloud migrated off (its move to c3 was recorded before the rewrite): only the PUT's
        // copies are left
        migrator.sweepOrphans();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (InMemoryCloudStore c : raw) {
                assertThat(c.list("")).as("objects on %s", c.id()).allSatisfy(o -> assertThat(
                        VersionName.parse("hybris/", o.key()).map(v -> v.sn() + "_" + v.clientId() + "."
                                + Long.toString(v.writeId(), 36))).contains(acknowledged.version()));
            }
            assertThat(raw.stream().mapToInt(c -> c.list("").size()).sum()).isEqualTo(2);
        });
        for (InMemoryCloudStore down : raw) {
            List<CloudStore> others = new ArrayList<>(raw);
            others.remove(down);
            others.add(UnavailableCloudStore.of(down));
            Hybris reader = open("reader", store, others);
            assertThat(reader.get("c", "big")).as("read with %s down", down.id()).hasValue(fresh);
        }
    }
}
