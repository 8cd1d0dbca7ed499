package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class StreamingSmokeTest {
    @Test
    void roundTrips() throws Exception {
        for (boolean encrypt : new boolean[] {false, true}) {
            InMemoryMetadataStore metadata = new InMemoryMetadataStore();
            List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
                    new InMemoryCloudStore("c2"));
            HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata)
                    .deadline(Duration.ofSeconds(10)).chunkSize(64 << 10).chunkThreshold(64 << 10);
            if (encrypt) {
                b.encryption(new MetadataKeyProvider());
            }
            clouds.forEach(b::cloud);
            try (Hybris h = Hybris.open(b.build())) {
                byte[] v = new byte[(64 << 10) * 5 + 17];
                new Random(1).nextBytes(v);
                VersionInfo info = h.put("c", "k", new ByteArrayInputStream(v), -1);
                assertThat(info.size()).isEqualTo(v.length);
                assertThat(h.get("c", "k")).hasValueSatisfying(got -> assertThat(got).isEqualTo(v));
                try (ValueStream s = h.get("c", "k", ByteRange.of(70_000, 200_000)).orElseThrow()) {
                    assertThat(s.readAllBytes()).isEqualTo(Arrays.copyOfRange(v, 70_000, 200_001));
                }
                h.put("c", "k", new byte[3]);
                assertThat(h.get("c", "k")).hasValueSatisfying(got -> assertThat(got).hasSize(3));
            }
        }
    }
}
