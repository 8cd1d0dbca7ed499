/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.SweepReport;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.testkit.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance test of repair (docs/scrub.md): a repairing scrub killed with SIGKILL in the middle, in a JVM of its own
 * ({@link KilledScrubChild}), then started again from its state file: it resumes after the last completed page,
 * finishes, and after the orphan sweep every cloud holds exactly the copies metadata references — the wiped cloud
 * its old copies back, nothing twice, nothing left over.
 */
class KilledScrubTest {
    static final List<String> CLOUDS = List.of("c0", "c1", "c2");
    static final int CHILD_REQUESTS_PER_SECOND = 400;
    private static final int KEYS = 2500;

    @TempDir
    Path dir;

    private SharedStores stores;
    private List<DirectoryCloudStore> clouds;
    private final MutableClock clock = new MutableClock();
    private Hybris hybris;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores("/scrub", dir);
        clouds = stores.clouds;
        hybris = Hybris.open(stores.client("parent").deadline(Duration.ofSeconds(20)).clock(clock)
                .gcGrace(Duration.ofHours(1)).build());
    }

    @AfterEach
    void stop() throws Exception {
        if (hybris != null) {
            hybris.close();
        }
        if (stores != null) {
            stores.close();
        }
    }

    private Set<String> objectsOn(DirectoryCloudStore cloud) {
        return cloud.list("hybris/").stream().map(CloudObject::key).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aRepairKilledMidwayResumesFromItsStateAndLeavesNoDuplicates() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            hybris.put("box", String.format("k%05d", i), ("value " + i).getBytes(StandardCharsets.UTF_8));
        }
        List<Set<String>> before = clouds.stream().map(this::objectsOn).toList();
        Set<String> wiped = before.get(1);
        assertThat(wiped).hasSizeGreaterThan(KEYS / 3);
        wiped.forEach(name -> clouds.get(1).delete(name));
        Path state = dir.resolve("scrub.state");

        try (ChildJvm child = ChildJvm.start(KilledScrubChild.class, List.of("-Xmx256m"),
                List.of(stores.connectString(), "/scrub", dir.resolve("clouds").toString(), state.toString()),
                dir.resolve("child.log"))) {
            child.awaitLine(l -> l.startsWith("PAGE "), Duration.ofSeconds(120));
            child.kill();
            assertThat(child.exitValue()).as("exit code of a JVM killed by SIGKILL").isEqualTo(128 + 9);
        }
        assertThat(Files.readString(state)).as("the checkpoint of the first page").contains("cursor.box=k00999");
        int restoredByChild = objectsOn(clouds.get(1)).size();
        assertThat(restoredByChild).as("copies the child restored before it was killed").isPositive()
                .isLessThan(wiped.size());

        List<KeyHealth> heard = new ArrayList<>();
        ScrubReport resumed = hybris.scrub(ScrubOptions.listing().repair(true).stateFile(state)
                .listener(new ScrubListener() {
                    @Override
                    public void key(KeyHealth health) {
                        heard.add(health);
                    }
                }));
        assertThat(resumed.complete()).isTrue();
        assertThat(heard).filteredOn(k -> k.key().compareTo("k00999") > 0).as("the keys after the checkpoint")
                .hasSize(KEYS - 1000);
        assertThat(heard).filteredOn(k -> k.key().compareTo("k00999") <= 0)
                .as("before it, only the keys the killed run repaired, reported again (not checked again)")
                .isNotEmpty().allMatch(k -> k.status() == KeyHealth.Status.REPAIRED);
        assertThat(resumed.keysChecked()).as("the report counts the killed run's first page too").isEqualTo(KEYS);
        assertThat(resumed.unrecoverable()).isZero();
        assertThat(objectsOn(clouds.get(1))).as("every copy back on the wiped cloud").isEqualTo(wiped);

        clock.advance(Duration.ofHours(2));
        SweepReport swept = hybris.sweepOrphans();
        assertThat(swept.deleted()).as("nothing unreferenced was left behind").isZero();
        assertThat(swept.tooYoung()).as("nothing unreferenced, however young").isZero();
        List<Set<String>> after = clouds.stream().map(this::objectsOn).toList();
        assertThat(after).as("each cloud holds exactly its referenced copies, once").isEqualTo(before);
        ScrubReport check = hybris.scrub(ScrubOptions.listing());
        assertThat(check.healthy()).isEqualTo(KEYS);
    }

    @Test
    void aCopyMovedOffARefusingCloudIsRecordedInZooKeeperByAConditionalUpdate() {
        for (int i = 0; i < 50; i++) {
            hybris.put("moves", "k" + i, ("value " + i).getBytes(StandardCharsets.UTF_8));
        }
        Set<String> onC1 = objectsOn(clouds.get(1));
        onC1.forEach(name -> clouds.get(1).delete(name));
        HybrisConfig.Builder b = Hybris.builder().f(1).clientId("repairer").metadataStore(stores.metadata)
                .deadline(Duration.ofSeconds(20)).cloud(clouds.get(0)).cloud(clouds.get(2))
                .cloud(new io.hybris.testkit.ForwardingCloudStore(clouds.get(1)) {
                    @Override
                    public void put(String objectKey, byte[] value) {
                        throw new io.hybris.spi.TransientCloudException("c1", "injected: c1 refuses writes");
                    }
                });
        try (Hybris repairer = Hybris.open(b.build())) {
            ScrubReport r = repairer.scrub(ScrubOptions.listing().repair(true).containers("moves"));
            assertThat(r.copiesMissing()).isEqualTo(onC1.size());
            assertThat(r.copiesRepaired()).isEqualTo(onC1.size());
            for (int i = 0; i < 50; i++) {
                assertThat(hybris.describe("moves", "k" + i).orElseThrow().clouds()).doesNotContain("c1").hasSize(2);
                assertThat(hybris.get("moves", "k" + i)).hasValueSatisfying(v ->
                        assertThat(v).isNotEmpty());
            }
            assertThat(repairer.scrub(ScrubOptions.listing().containers("moves")).healthy()).isEqualTo(50);
        }
    }
}
