/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeadlineExceededException;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.KeyUnavailableException;
import io.hybris.RewrapReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.MetadataKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Confidentiality end to end: what clouds and the metadata store see, key custody, tampering, rotation. */
class EncryptionTest {
    private static final String MARKER = "PLAINTEXT-MARKER-7f3a9";
    private static final String C = "vault";

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(KeyProvider keys, List<? extends CloudStore> stores) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .deadline(Duration.ofSeconds(10)).timerMin(Duration.ofMillis(100)).timerInitial(Duration.ofMillis(300));
        stores.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private Hybris client(KeyProvider keys) {
        return client(keys, clouds);
    }

    private EnvelopeKeyProvider envelope(String current, Object... idAndKey) {
        Map<String, SecretKey> keks = new HashMap<>();
        for (int i = 0; i < idAndKey.length; i += 2) {
            keks.put((String) idAndKey[i], (SecretKey) idAndKey[i + 1]);
        }
        return EnvelopeKeyProvider.of(keks, current);
    }

    private static byte[] valueWithMarker(int size, long seed) {
        byte[] v = new byte[size];
        new Random(seed).nextBytes(v);
        byte[] marker = MARKER.getBytes(StandardCharsets.US_ASCII);
        for (int at = 0; at + marker.length <= size; at += Math.max(marker.length, size / 7)) {
            System.arraycopy(marker, 0, v, at, marker.length);
        }
        return v;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        return TestBytes.contains(haystack, needle);
    }

    private void assertNoCloudObjectContainsTheMarker() {
        byte[] marker = MARKER.getBytes(StandardCharsets.US_ASCII);
        int scanned = 0;
        for (InMemoryCloudStore cloud : clouds) {
            for (CloudObject o : cloud.list("")) {
                byte[] stored = cloud.get(o.key(), Long.MAX_VALUE).orElseThrow();
                assertThat(contains(stored, marker)).as("%s on %s", o.key(), cloud.id()).isFalse();
                scanned++;
            }
        }
        assertThat(scanned).isGreaterThan(0);
    }

    @Test
    void cloudsNeverReceivePlaintextInEitherCustodyMode() {
        for (KeyProvider keys : List.of(new MetadataKeyProvider(), envelope("k1", "k1", k1))) {
            Hybris h = client(keys);
            byte[] small = valueWithMarker(MARKER.length(), 1);
            byte[] large = valueWithMarker(1 << 20, 2);
            h.put(C, "small", small);
            h.put(C, "large", large);
            h.tput(C, Map.of("t1", valueWithMarker(1000, 3), "t2", valueWithMarker(70_000, 4)));
            assertThat(h.get(C, "small")).hasValueSatisfying(v -> assertThat(v).isEqualTo(small));
            assertThat(h.get(C, "large")).hasValueSatisfying(v -> assertThat(v).isEqualTo(large));
            assertThat(h.get(C, "t2")).hasValueSatisfying(v -> assertThat(v).isEqualTo(valueWithMarker(70_000, 4)));
            assertNoCloudObjectContainsTheMarker();
        }
        // the scan can see a marker: without encryption it is found
        Hybris plain = client(null);
        plain.put(C, "plain", valueWithMarker(100, 5));
        assertThatThrownBy(this::assertNoCloudObjectContainsTheMarker).isInstanceOf(AssertionError.class);
    }

    @Test
    void tamperedCiphertextIsCaughtByTheHashBeforeDecryption() {
        EventRecorder events = new EventRecorder();
        List<CloudStore> stores = List.of(CorruptingCloudStore.of(clouds.get(0)), clouds.get(1), clouds.get(2));
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                .encryption(envelope("k1", "k1", k1)).listener(events).deadline(Duration.ofSeconds(2))
                .timerMin(Duration.ofMillis(100));
        stores.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        h.put(C, "k", "secret".getBytes(StandardCharsets.UTF_8));
        assertThat(h.describe(C, "k").orElseThrow().clouds()).contains("c0");
        assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8))
                .isEqualTo("secret"));
        assertThat(events.count("c0", CloudOperation.GET, Outcome.CORRUPT)).isEqualTo(1);

        // every copy tampered: the hash rejects them all, decryption is never attempted on tampered bytes
        List<CloudStore> allBad = clouds.stream().map(c -> (CloudStore) CorruptingCloudStore.of(c)).toList();
        HybrisConfig.Builder bad = HybrisConfig.builder().f(1).metadataStore(metadata)
                .encryption(envelope("k1", "k1", k1)).deadline(Duration.ofSeconds(2));
        allBad.forEach(bad::cloud);
        Hybris reader = Hybris.open(bad.build());
        open.add(reader);
        assertThatThrownBy(() -> reader.get(C, "k")).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("hash");
    }

    @Test
    void kekRotationUnderConcurrentPutsLosesNothingAndResumes() throws Exception {
        Hybris old = client(envelope("k1", "k1", k1));
        int keys = 40;
        for (int i = 0; i < keys; i++) {
            old.put(C, "key-" + i, ("v0-" + i).getBytes(StandardCharsets.UTF_8));
        }
        // writers still on the old configuration (current KEK k1) keep writing during the rotation
        Hybris writer = client(envelope("k1", "k1", k1, "k2", k2));
        Hybris rotator = client(envelope("k2", "k1", k1, "k2", k2));
        String[] lastAcked = new String[keys];
        for (int i = 0; i < keys; i++) {
            lastAcked[i] = "v0-" + i;
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writerIndex = w;
                writers.add(pool.submit(() -> {
                    for (int round = 1; !stop.get() || round < 3; round++) {
                        for (int i = writerIndex; i < keys; i += 2) {
                            String v = "v" + round + "-" + i;
                            writer.put(C, "key-" + i, v.getBytes(StandardCharsets.UTF_8));
                            lastAcked[i] = v;
                        }
                    }
                    return null;
                }));
            }
            RewrapReport first = rotator.rewrapDataKeys();
            stop.set(true);
            for (Future<?> f : writers) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(first.examined()).isGreaterThanOrEqualTo(keys);
        } finally {
            pool.shutdownNow();
        }
        // resume: entries written under k1 during the first pass are re-wrapped now
        RewrapReport second = rotator.rewrapDataKeys();
        assertThat(second.examined()).isEqualTo(keys);
        assertThat(second.rewrapped() + second.alreadyCurrent()).isEqualTo(keys);
        // a third pass finds every entry already under the current KEK k2
        RewrapReport third = rotator.rewrapDataKeys();
        assertThat(third.rewrapped()).isZero();
        assertThat(third.alreadyCurrent()).isEqualTo(keys);
        Hybris onlyNewKek = client(envelope("k2", "k2", k2));
        for (int i = 0; i < keys; i++) {
            assertThat(onlyNewKek.get(C, "key-" + i).map(v -> new String(v, StandardCharsets.UTF_8)))
                    .as("key-%d", i).hasValue(lastAcked[i]);
        }
    }

    @Test
    void metadataBytesPerKeyForEachCustodyMode() {
        byte[] value = new byte[1024];
        client(null).put(C, "none", value);
        client(new MetadataKeyProvider()).put(C, "metadata", value);
        client(envelope("k1", "k1", k1)).put(C, "envelope", value);
        // 53 bytes for a replicated entry (49 + a 4-byte write id); + 36 for an unwrapped data key; + 66 for a 60-byte wrapped key and id
        assertThat(metadata.read(new MetadataKey(C, "none")).orElseThrow().value()).hasSize(53);
        assertThat(metadata.read(new MetadataKey(C, "metadata")).orElseThrow().value()).hasSize(89);
        assertThat(metadata.read(new MetadataKey(C, "envelope")).orElseThrow().value()).hasSize(119);
    }

    @Test
    void rotationWithoutAKeyProviderIsRejected() {
        assertThatThrownBy(() -> client(null).rewrapDataKeys()).hasMessageContaining("hybris.crypto.mode");
    }

    @Test
    void envelopeModeFromPropertiesWithTheKeysInTheEnvironment() {
        String keys = "old:" + Base64.getEncoder().encodeToString(k1.getEncoded()) + ",new:"
                + Base64.getEncoder().encodeToString(k2.getEncoded());
        Map<String, String> props = Map.of("hybris.f", "1", "hybris.rmds.type", "memory",
                "hybris.cloud.m1.type", "memory", "hybris.cloud.m2.type", "memory",
                "hybris.crypto.mode", "envelope", "hybris.crypto.kek.current", "new");
        HybrisConfig config = HybrisConfig.fromMap(props, Map.of("HYBRIS_CRYPTO_KEK_KEYS", keys));
        assertThat(config.keyProvider()).containsInstanceOf(EnvelopeKeyProvider.class);
        assertThat(config.keyProvider().orElseThrow().currentKeyId()).isEqualTo("new");
        try (Hybris h = Hybris.open(config)) {
            h.put(C, "k", "v".getBytes(StandardCharsets.UTF_8));
            assertThat(h.get(C, "k")).hasValueSatisfying(v -> assertThat(v).containsExactly('v'));
        }
        Map<String, String> missingCurrent = new HashMap<>(props);
        missingCurrent.remove("hybris.crypto.kek.current");
        assertThatThrownBy(() -> HybrisConfig.fromMap(missingCurrent, Map.of("HYBRIS_CRYPTO_KEK_KEYS", keys)))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.crypto.kek.current");
        assertThatThrownBy(() -> HybrisConfig.fromMap(props, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.crypto.kek.keys");
        Map<String, String> badMode = new HashMap<>(props);
        badMode.put("hybris.crypto.mode", "rot13");
        assertThatThrownBy(() -> HybrisConfig.fromMap(badMode, Map.of("HYBRIS_CRYPTO_KEK_KEYS", keys)))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("rot13");
    }

    @Test
    void valuesStayReadableAfterDroppingTheOldKekOnlyOnceRotated() {
        client(envelope("k1", "k1", k1)).put(C, "k", "v1".getBytes(StandardCharsets.UTF_8));
        Hybris newOnly = client(envelope("k2", "k2", k2));
        assertThatThrownBy(() -> newOnly.get(C, "k")).isInstanceOf(KeyUnavailableException.class);
        assertThat(client(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys().rewrapped()).isEqualTo(1);
        assertThat(newOnly.get(C, "k").map(String::new)).isEqualTo(Optional.of("v1"));
    }
}
