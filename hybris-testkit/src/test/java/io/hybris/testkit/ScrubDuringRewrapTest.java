/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.KeyHealth;
import io.hybris.ScrubOptions;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.KeyProvider;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scrub repair whose placement update meets a concurrent KEK rotation of the same entry (same version, only the
 * wrapped data key changed) used to report the key SUPERSEDED and leave the lost copy listed; the update is now
 * retried on the rotated entry and the key is REPAIRED.
 */
class ScrubDuringRewrapTest {
    private static final String C = "vault";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<Hybris> open = new ArrayList<>();
    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    /** Refuses puts while {@code refuse}; runs {@code onPut} (once) before its first accepted put. */
    static final class Hooked extends ForwardingCloudStore {
        volatile boolean refuse;
        volatile Runnable onPut;

        Hooked(CloudStore d) {
            super(d);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (refuse) {
                throw new TransientCloudException(id(), "refuses puts");
            }
            Runnable r = onPut;
            onPut = null;
            if (r != null) {
                r.run();
            }
            super.put(objectKey, value);
        }
    }

    private Hybris client(KeyProvider keys, List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).encryption(keys)
                .deadline(Duration.ofSeconds(10)).probeInterval(Duration.ZERO);
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

    @Test
    void aRepairMeetingARotationOfTheSameVersionStillRecordsTheMovedCopy() {
        List<Hooked> clouds = new ArrayList<>();
        Map<String, Hooked> byId = new HashMap<>();
        Map<String, InMemoryCloudStore> raw = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            InMemoryCloudStore r = new InMemoryCloudStore("c" + i);
            Hooked h = new Hooked(r);
            clouds.add(h);
            byId.put(h.id(), h);
            raw.put(h.id(), r);
        }
        Hybris writer = client(envelope("k1", "k1", k1), clouds);
        byte[] v = "value".getBytes(StandardCharsets.UTF_8);
        writer.put(C, "k", v);
        List<String> holders = writer.describe(C, "k").orElseThrow().clouds();
        String lost = holders.get(0);
        // the copy on `lost` is gone and that cloud refuses it back: the repair must move it
        raw.get(lost).list("").forEach(o -> raw.get(lost).delete(o.key()));
        byId.get(lost).refuse = true;
        // the rotation runs meanwhile (here: while the rebuilt copy is being uploaded)
        Hybris rotator = client(envelope("k2", "k1", k1, "k2", k2), clouds);
        AtomicBoolean rotated = new AtomicBoolean();
        for (Hooked c : clouds) {
            if (!holders.contains(c.id())) {
                c.onPut = () -> {
                    if (rotated.compareAndSet(false, true)) {
                        rotator.rewrapDataKeys();
                    }
                };
            }
        }
        List<KeyHealth> seen = new ArrayList<>();
        writer.scrub(ScrubOptions.listing().repair(true).listener(new io.hybris.ScrubListener() {
            @Override
            public void key(KeyHealth h) {
                seen.add(h);
            }
        }));
        assertThat(rotated).isTrue();
        assertThat(seen).hasSize(1);
        // the version was not replaced: only its wrapped data key changed
        assertThat(writer.describe(C, "k").orElseThrow().version()).isEqualTo(seen.get(0).version());
        assertThat(seen.get(0).status()).as(seen.get(0).toString()).isEqualTo(KeyHealth.Status.REPAIRED);
        assertThat(writer.describe(C, "k").orElseThrow().clouds()).doesNotContain(lost);
    }
}
