/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.CacheSettings;
import io.hybris.Consistency;
import io.hybris.Hybris;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.Arrays;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

/** Chunked values through a value cache: round trips, and read-your-writes returns the new value after a chunked put. */
class StreamingCacheTest {
    private final StreamingFixture fx = new StreamingFixture();
    private final MapCache cache = new MapCache();

    @AfterEach
    void close() {
        fx.close();
    }

    private Hybris open(Consistency consistency) {
        return fx.open(b -> b.cache(CacheSettings.builder().cache(cache).writeThrough(true).fillOnRead(true)
                .consistency(consistency).build()));
    }

    @Test
    void chunkedValuesRoundTripThroughTheCache() throws Exception {
        Hybris h = open(Consistency.LINEARIZABLE);
        for (int length : new int[] {CHUNK + 1, 3 * CHUNK, 5 * CHUNK + 17}) {
            byte[] v = value(length, length);
            String key = "k" + length;
            VersionInfo put = h.put(C, key, new ByteArrayInputStream(v), -1);

            for (int round = 0; round < 2; round++) { // the second round may be served from the cache
                assertThat(h.get(C, key)).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
                try (ValueStream s = h.getStream(C, key).orElseThrow()) {
                    assertThat(s.version()).isEqualTo(put);
                    assertThat(s.readAllBytes()).isEqualTo(v);
                }
                try (ValueStream s = h.get(C, key, ByteRange.of(CHUNK - 1, CHUNK)).orElseThrow()) {
                    assertThat(s.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, CHUNK - 1, CHUNK + 1));
                }
            }
        }
        assertThat(cache.entries).as("the manifests were cached").hasSize(3);
    }

    @Test
    void readYourWritesAfterAChunkedPutReturnsTheNewValue() throws Exception {
        Hybris h = open(Consistency.READ_YOUR_WRITES);
        byte[] small = value(100, 1);
        byte[] chunked = value(4 * CHUNK + 3, 2);
        byte[] again = value(2 * CHUNK + 9, 3);

        h.put(C, "k", small);
        assertThat(h.get(C, "k", io.hybris.ReadOptions.readYourWrites())).hasValueSatisfying(g -> assertThat(g).isEqualTo(small));
        h.put(C, "k", new ByteArrayInputStream(chunked), chunked.length);
        assertThat(h.get(C, "k", io.hybris.ReadOptions.readYourWrites())).hasValueSatisfying(g -> assertThat(g).isEqualTo(chunked));
        assertThat(h.get(C, "k")).hasValueSatisfying(g -> assertThat(g).isEqualTo(chunked));
        h.put(C, "k", again);
        assertThat(h.get(C, "k", io.hybris.ReadOptions.readYourWrites())).hasValueSatisfying(g -> assertThat(g).isEqualTo(again));
        h.delete(C, "k");
        assertThat(h.get(C, "k", io.hybris.ReadOptions.readYourWrites())).isEmpty();
    }
}
