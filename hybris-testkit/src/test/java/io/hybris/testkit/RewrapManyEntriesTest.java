/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.RewrapReport;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.KeyProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KEK rotation over more entries than one metadata listing page (500) holds, and more unreadable entries than the
 * report names (100): {@code rewrapDataKeys} pages through every container to its end, so once it reports done the
 * old KEK can be dropped without any entry left unreadable; and it names only the first 100 entries it could not
 * unwrap while counting all of them (docs/encryption.md, "KEK rotation").
 */
class RewrapManyEntriesTest {
    private static final int ENTRIES = 520;
    private static final int UNREADABLE = 101;

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();
    private final SecretKey kx = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client(KeyProvider keys) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .deadline(Duration.ofSeconds(20)).timerMin(Duration.ofMillis(100)).timerInitial(Duration.ofMillis(300));
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private static EnvelopeKeyProvider envelope(String current, Object... idAndKey) {
        Map<String, SecretKey> keks = new HashMap<>();
        for (int i = 0; i < idAndKey.length; i += 2) {
            keks.put((String) idAndKey[i], (SecretKey) idAndKey[i + 1]);
        }
        return EnvelopeKeyProvider.of(keks, current);
    }

    private static byte[] value(int i) {
        return ("value-" + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRotationReachesEveryEntryPastTheFirstListingPage() {
        Hybris writer = client(envelope("k1", "k1", k1));
        for (int i = 0; i < ENTRIES; i++) {
            writer.put("vault", String.format("k%04d", i), value(i));
        }

        Hybris rotator = client(envelope("k2", "k1", k1, "k2", k2));
        RewrapReport first = rotator.rewrapDataKeys();
        assertThat(first.examined()).isEqualTo(ENTRIES);
        assertThat(first.rewrapped()).isEqualTo(ENTRIES);
        assertThat(first.unreadable()).isZero();
        assertThat(rotator.rewrapDataKeys().rewrapped()).as("done: a second run finds nothing").isZero();

        // step 3: the old KEK is dropped; every entry, the last pages' included, stays readable
        Hybris newOnly = client(envelope("k2", "k2", k2));
        for (int i = 0; i < ENTRIES; i++) {
            String key = String.format("k%04d", i);
            byte[] expected = value(i);
            assertThat(newOnly.get("vault", key)).as(key).hasValueSatisfying(v -> assertThat(v).isEqualTo(expected));
        }
    }

    @Test
    void unreadableEntriesAreAllCountedButOnlyTheFirstHundredNamed() {
        Hybris foreign = client(envelope("kx", "kx", kx));
        for (int i = 0; i < UNREADABLE; i++) {
            foreign.put("foreign", String.format("f%04d", i), value(i));
        }
        Hybris writer = client(envelope("k1", "k1", k1));
        writer.put("vault", "mine", value(0));

        RewrapReport report = client(envelope("k2", "k1", k1, "k2", k2)).rewrapDataKeys();
        assertThat(report.examined()).isEqualTo(UNREADABLE + 1);
        assertThat(report.rewrapped()).isEqualTo(1);
        assertThat(report.unreadable()).isEqualTo(UNREADABLE);
        assertThat(report.unreadableKeys()).hasSize(100).allMatch(k -> k.startsWith("foreign/f"));
    }
}
