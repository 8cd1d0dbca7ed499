/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cloud.InMemoryCloudStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HybrisConfigTest {
    @TempDir
    Path dir;

    private static HybrisConfig.Builder twoMemoryClouds() {
        return HybrisConfig.builder()
                .metadataStore("memory", Map.of())
                .cloud("c1", "memory", Map.of())
                .cloud("c2", "memory", Map.of());
    }

    private Path properties(String... lines) throws IOException {
        Path file = dir.resolve("hybris.properties");
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void aMinimalConfigurationGetsTheDocumentedDefaults() {
        HybrisConfig config = twoMemoryClouds().build();

        assertThat(config.f()).isEqualTo(1);
        assertThat(config.clientId()).matches("[a-z2-7]{8}");
        assertThat(config.clouds()).extracting(CloudSpec::id).containsExactly("c1", "c2");
        assertThat(config.metadataType()).contains("memory");
        assertThat(config.deadline()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.maxValueSize()).isEqualTo(5L << 40);
        assertThat(config.chunkThreshold()).isEqualTo(8L << 20);
        assertThat(config.chunkSize()).isEqualTo(8 << 20);
        assertThat(config.chunkParallelUploads()).isEqualTo(4);
        assertThat(config.chunkReadAhead()).isEqualTo(4);
        assertThat(config.objectPrefix()).isEqualTo("hybris/");
        assertThat(config.timerMin()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.timerInitial()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.timerMultiplier()).isEqualTo(3.0);
        assertThat(config.gcEnabled()).isTrue();
        assertThat(config.gcGrace()).isEqualTo(Duration.ofHours(1));
        assertThat(config.sweepInterval()).isZero();
    }

    @Test
    void generatedClientIdsDiffer() {
        assertThat(twoMemoryClouds().build().clientId()).isNotEqualTo(twoMemoryClouds().build().clientId());
    }

    @Test
    void fTooLargeForTheCloudCountNamesTheKeyAndTheClouds() {
        assertThatThrownBy(() -> HybrisConfig.builder().metadataStore("memory", Map.of())
                .cloud("aws", "memory", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.f=1 needs at least 2 clouds")
                .hasMessageContaining("3 for writes to survive an outage; 1 configured: aws");
        assertThatThrownBy(() -> twoMemoryClouds().f(2).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.f=2 needs at least 3 clouds").hasMessageContaining("2 configured: c1, c2");
        assertThatThrownBy(() -> HybrisConfig.builder().metadataStore("memory", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("0 configured.");
    }

    @Test
    void fZeroNeedsOneCloudAndNegativeFIsRejected() {
        HybrisConfig config = HybrisConfig.builder().f(0).metadataStore("memory", Map.of())
                .cloud("only", "memory", Map.of()).build();
        assertThat(config.f()).isZero();

        assertThatThrownBy(() -> twoMemoryClouds().f(-1).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessage("hybris.f=-1 must be 0 or more");
    }

    @Test
    void aDuplicateCloudIdIsRejectedNamingIt() {
        HybrisConfig.Builder builder = twoMemoryClouds();

        assertThatThrownBy(() -> builder.cloud("c1", "directory", Map.of("path", "/tmp/x")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("cloud id 'c1' is configured twice");
        assertThatThrownBy(() -> builder.cloud(new InMemoryCloudStore("c2")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("cloud id 'c2' is configured twice");
    }

    @Test
    void badClientIdsAreRejectedNamingTheKeyAndValue() {
        for (String bad : List.of("Client_1", "-abc", "a".repeat(33), "")) {
            assertThatThrownBy(() -> twoMemoryClouds().clientId(bad).build())
                    .isInstanceOf(HybrisConfigurationException.class)
                    .hasMessageContaining("hybris.client-id=" + bad + " is invalid");
        }
        assertThat(twoMemoryClouds().clientId("client-1").build().clientId()).isEqualTo("client-1");
    }

    @Test
    void badCloudIdsAreRejectedNamingThem() {
        assertThatThrownBy(() -> twoMemoryClouds().cloud("AWS", "memory", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("cloud id 'AWS' is invalid");
    }

    @Test
    void anUnknownProviderTypeNamesTheAvailableTypes() {
        assertThatThrownBy(() -> twoMemoryClouds().cloud("c3", "nosuch", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.c3.type=nosuch")
                .hasMessageContaining("available: directory, memory");
        assertThatThrownBy(() -> twoMemoryClouds().metadataStore("nosuch", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.rmds.type=nosuch")
                .hasMessageContaining("memory");
    }

    @Test
    void anUnknownProviderOptionNamesTheKnownOnes() {
        assertThatThrownBy(() -> twoMemoryClouds().cloud("d1", "directory", Map.of("path", "/tmp/d1", "bogus", "1"))
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("unknown option hybris.cloud.d1.bogus; known options: path");
        assertThatThrownBy(() -> twoMemoryClouds().cloud("m3", "memory", Map.of("path", "/tmp")).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("unknown option hybris.cloud.m3.path; known options: none");
        assertThatThrownBy(() -> twoMemoryClouds().metadataStore("memory", Map.of("connect", "x")).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("unknown option hybris.rmds.memory.connect; known options: none");
    }

    @Test
    void aMissingMetadataStoreIsRejected() {
        assertThatThrownBy(() -> HybrisConfig.builder().cloud("c1", "memory", Map.of())
                .cloud("c2", "memory", Map.of()).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("no metadata store configured: set hybris.rmds.type");
    }

    @Test
    void applicationSuppliedCloudsNeedNoProvider() {
        HybrisConfig config = HybrisConfig.builder().metadataStore("memory", Map.of())
                .cloud(new InMemoryCloudStore("own1")).cloud(new InMemoryCloudStore("own2")).build();

        assertThat(config.clouds()).extracting(CloudSpec::type).containsExactly("instance", "instance");
        assertThat(config.clouds().get(0).instance()).isPresent();
    }

    @Test
    void numericAndDurationSettingsAreValidatedNamingTheKey() {
        assertThatThrownBy(() -> twoMemoryClouds().deadline(Duration.ZERO).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessage("hybris.deadline=PT0S must be positive");
        assertThatThrownBy(() -> twoMemoryClouds().timerMin(Duration.ofMillis(-1)).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.timer.min=");
        assertThatThrownBy(() -> twoMemoryClouds().timerMultiplier(0.5).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.timer.multiplier=0.5 must be a number >= 1");
        assertThatThrownBy(() -> twoMemoryClouds().timerMultiplier(Double.NaN).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.timer.multiplier=NaN");
        assertThatThrownBy(() -> twoMemoryClouds().maxValueSize(-1).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.value.max-size=-1");
        assertThatThrownBy(() -> twoMemoryClouds().maxValueSize((1L << 50) + 1).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.value.max-size=" + ((1L << 50) + 1))
                .hasMessageContaining("written 1024TiB"); // the limit in a unit sizes take ("1PiB" is not one)
        assertThat(twoMemoryClouds().maxValueSize(io.hybris.spi.support.ConfigValues.parseSize(
                "hybris.value.max-size", "1024TiB")).build().maxValueSize()).isEqualTo(1L << 50);
        assertThatThrownBy(() -> twoMemoryClouds().chunkSize(1000).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.chunk.size=1000");
        assertThatThrownBy(() -> twoMemoryClouds().chunkThreshold(-1).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.chunk.threshold=-1");
        assertThatThrownBy(() -> twoMemoryClouds().chunkParallelUploads(0).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.chunk.parallel-uploads=0");
        assertThatThrownBy(() -> twoMemoryClouds().chunkReadAhead(65).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.chunk.read-ahead=65");
        assertThatThrownBy(() -> twoMemoryClouds().gcGrace(Duration.ofSeconds(-1)).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.gc.grace=PT-1S");
        assertThatThrownBy(() -> twoMemoryClouds().sweepInterval(Duration.ofSeconds(-1)).build())
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.gc.sweep-interval=PT-1S");
    }

    @Test
    void objectPrefixesMustBeSlashTerminatedSegments() {
        assertThat(twoMemoryClouds().objectPrefix("").build().objectPrefix()).isEmpty();
        assertThat(twoMemoryClouds().objectPrefix("team-a/hybris/").build().objectPrefix()).isEqualTo("team-a/hybris/");
        for (String bad : List.of("hybris", "Hybris/", "/hybris/", "a//", "a#/")) {
            assertThatThrownBy(() -> twoMemoryClouds().objectPrefix(bad).build())
                    .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.prefix=" + bad);
        }
    }

    @Test
    void readsAPropertiesFile() throws IOException {
        Path file = properties(
                "hybris.f=1",
                "hybris.client-id=client-1",
                "hybris.deadline=5s",
                "hybris.value.max-size=1MiB",
                "hybris.chunk.threshold=2MiB",
                "hybris.chunk.size=1MiB",
                "hybris.chunk.parallel-uploads=2",
                "hybris.chunk.read-ahead=3",
                "hybris.prefix=app/",
                "hybris.timer.min=10ms",
                "hybris.timer.initial=PT1S",
                "hybris.timer.multiplier=2.5",
                "hybris.gc.enabled=false",
                "hybris.gc.grace=30m",
                "hybris.gc.sweep-interval=1h",
                "hybris.rmds.type=memory",
                "hybris.cloud.c2.type=directory",
                "hybris.cloud.c2.path=" + dir.resolve("c2"),
                "hybris.cloud.c1.type=memory");

        HybrisConfig config = HybrisConfig.fromProperties(file, Map.of());

        assertThat(config.clientId()).isEqualTo("client-1");
        assertThat(config.deadline()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.maxValueSize()).isEqualTo(1L << 20);
        assertThat(config.chunkThreshold()).isEqualTo(2L << 20);
        assertThat(config.chunkSize()).isEqualTo(1 << 20);
        assertThat(config.chunkParallelUploads()).isEqualTo(2);
        assertThat(config.chunkReadAhead()).isEqualTo(3);
        assertThat(config.objectPrefix()).isEqualTo("app/");
        assertThat(config.timerMin()).isEqualTo(Duration.ofMillis(10));
        assertThat(config.timerInitial()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.timerMultiplier()).isEqualTo(2.5);
        assertThat(config.gcEnabled()).isFalse();
        assertThat(config.gcGrace()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.sweepInterval()).isEqualTo(Duration.ofHours(1));
        assertThat(config.metadataType()).contains("memory");
        assertThat(config.clouds()).extracting(CloudSpec::id).containsExactly("c1", "c2");
        assertThat(config.clouds().get(1).type()).isEqualTo("directory");
        assertThat(config.clouds().get(1).options()).containsExactly(Map.entry("path", dir.resolve("c2").toString()));
    }

    @Test
    void environmentVariablesOverrideTheFile() throws IOException {
        Path file = properties(
                "hybris.f=0",
                "hybris.client-id=from-file",
                "hybris.rmds.type=memory",
                "hybris.cloud.c1.type=directory",
                "hybris.cloud.c1.path=/from/file",
                "hybris.cloud.c2.type=memory",
                "hybris.cloud.c3.type=memory");
        Map<String, String> env = new HashMap<>();
        env.put("HYBRIS_F", "1");
        env.put("HYBRIS_CLIENT_ID", "from-env");
        env.put("HYBRIS_DEADLINE", "7s");
        env.put("HYBRIS_CLOUD_C1_PATH", "/from/env");
        env.put("HYBRIS_CLOUD_C2_TYPE", "directory");
        env.put("HYBRIS_CLOUD_C2_PATH", "/c2/env");
        env.put("HYBRIS_GC_SWEEP_INTERVAL", "2m");
        env.put("UNRELATED", "ignored");

        HybrisConfig config = HybrisConfig.fromProperties(file, env);

        assertThat(config.f()).isEqualTo(1);
        assertThat(config.clientId()).isEqualTo("from-env");
        assertThat(config.deadline()).isEqualTo(Duration.ofSeconds(7));
        assertThat(config.sweepInterval()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.clouds().get(0).options()).containsEntry("path", "/from/env");
        assertThat(config.clouds().get(1).type()).isEqualTo("directory");
        assertThat(config.clouds().get(1).options()).containsEntry("path", "/c2/env");
        assertThat(config.clouds().get(2).type()).isEqualTo("memory");
    }

    @Test
    void theMetadataTypeCanComeFromTheEnvironment() {
        HybrisConfig config = HybrisConfig.fromMap(Map.of("hybris.cloud.c1.type", "memory",
                "hybris.cloud.c2.type", "memory"), Map.of("HYBRIS_RMDS_TYPE", "memory"));

        assertThat(config.metadataType()).contains("memory");
    }

    @Test
    void unknownHybrisKeysAreRejectedByNameAndOtherKeysIgnored() {
        Map<String, String> base = new HashMap<>(Map.of("hybris.rmds.type", "memory",
                "hybris.cloud.c1.type", "memory", "hybris.cloud.c2.type", "memory",
                "other.key", "ignored", "hybrisx.f", "ignored", "HYBRIS.F", "ignored"));
        assertThat(HybrisConfig.fromMap(base, Map.of()).f()).isEqualTo(1);

        Map<String, String> typo = new HashMap<>(base);
        typo.put("hybris.deadlin", "5s");
        assertThatThrownBy(() -> HybrisConfig.fromMap(typo, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("unknown configuration key hybris.deadlin;")
                .hasMessageContaining("known keys:").hasMessageContaining("hybris.deadline");

        Map<String, String> two = new HashMap<>(base);
        two.put("hybris.cloud.c1", "x");
        two.put("hybris.rmds.zookeeper.connect", "zk:2181");
        assertThatThrownBy(() -> HybrisConfig.fromMap(two, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("unknown configuration keys hybris.cloud.c1, hybris.rmds.zookeeper.connect;");
    }

    @Test
    void unknownProviderOptionsInPropertiesAreRejectedByKey() {
        Map<String, String> props = Map.of("hybris.rmds.type", "memory",
                "hybris.cloud.c1.type", "directory", "hybris.cloud.c1.path", "/x", "hybris.cloud.c1.bucket", "b",
                "hybris.cloud.c2.type", "memory");

        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("unknown option hybris.cloud.c1.bucket; known options: path");
    }

    @Test
    void aCloudWithoutATypeIsRejectedNamingTheKey() {
        Map<String, String> props = Map.of("hybris.rmds.type", "memory",
                "hybris.cloud.c1.path", "/x", "hybris.cloud.c2.type", "memory");

        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.c1.type is missing");
    }

    @Test
    void badValuesInPropertiesNameTheirKey() {
        Map<String, String> props = new HashMap<>(Map.of("hybris.rmds.type", "memory",
                "hybris.cloud.c1.type", "memory", "hybris.cloud.c2.type", "memory"));
        props.put("hybris.deadline", "soon");
        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.deadline=soon");
        props.remove("hybris.deadline");
        props.put("hybris.timer.multiplier", "fast");
        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessage("hybris.timer.multiplier=fast is not a number");
        props.remove("hybris.timer.multiplier");
        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of("HYBRIS_F", "many")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessage("hybris.f=many is not an integer");
    }

    @Test
    void aMissingFileIsAConfigurationError() {
        Path missing = dir.resolve("absent.properties");

        assertThatThrownBy(() -> HybrisConfig.fromProperties(missing, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("cannot read configuration file " + missing);
    }

    @Test
    void environmentVariableNames() {
        assertThat(HybrisConfig.environmentVariableFor("hybris.rmds.zookeeper.digest"))
                .isEqualTo("HYBRIS_RMDS_ZOOKEEPER_DIGEST");
        assertThat(HybrisConfig.environmentVariableFor("hybris.gc.sweep-interval")).isEqualTo("HYBRIS_GC_SWEEP_INTERVAL");
        assertThat(HybrisConfig.environmentVariableFor("hybris.cloud.disk-1.path")).isEqualTo("HYBRIS_CLOUD_DISK_1_PATH");
    }

    @Test
    void readSettingsComeFromTheGetKeysWithHedgingAndQuarantineOnByDefault() {
        Map<String, String> base = Map.of("hybris.rmds.type", "memory", "hybris.cloud.a.type", "memory",
                "hybris.cloud.b.type", "memory", "hybris.cloud.c.type", "memory");
        HybrisConfig defaults = HybrisConfig.fromMap(base, Map.of());
        assertThat(defaults.reads().hedge()).isTrue();
        assertThat(defaults.reads().hedgeMinDelay()).isEqualTo(Duration.ofMillis(50));
        assertThat(defaults.reads().quarantineAfter()).isEqualTo(2);
        assertThat(defaults.reads().quarantineDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.reads().supersededRetention()).isZero();

        Map<String, String> set = new java.util.HashMap<>(base);
        set.put("hybris.get.hedge", "false");
        set.put("hybris.get.hedge.min-delay", "25ms");
        set.put("hybris.get.quarantine.after", "0");
        set.put("hybris.get.superseded-retention", "30s");
        HybrisConfig config = HybrisConfig.fromMap(set, Map.of("HYBRIS_GET_QUARANTINE_DURATION", "1m"));
        assertThat(config.reads().hedge()).isFalse();
        assertThat(config.reads().hedgeMinDelay()).isEqualTo(Duration.ofMillis(25));
        assertThat(config.reads().quarantineAfter()).isZero();
        assertThat(config.reads().quarantineDuration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.reads().supersededRetention()).isEqualTo(Duration.ofSeconds(30));

        set.put("hybris.get.quarantine.duration", "0s");
        assertThatThrownBy(() -> HybrisConfig.fromMap(set, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.get.quarantine.duration=PT0S must be positive")
                .hasMessageContaining("hybris.get.quarantine.after=0");
        set.put("hybris.get.quarantine.duration", "1m");
        set.put("hybris.get.quarantine.after", "-1");
        assertThatThrownBy(() -> HybrisConfig.fromMap(set, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.get.quarantine.after=-1");
        set.put("hybris.get.quarantine.after", "2");
        set.put("hybris.get.superseded-retention", "2d");
        assertThatThrownBy(() -> HybrisConfig.fromMap(set, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.get.superseded-retention=PT48H must be between 0 (collect at once) and 1d");
    }
}
