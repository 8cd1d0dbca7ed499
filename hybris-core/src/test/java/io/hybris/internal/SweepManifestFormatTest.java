/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.SweepReport;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionedValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The orphan sweep reads the manifest of a current version completed from parts to find chunks it does not name
 * (testkit's {@code LeftoverPartsSweptTest}). A manifest in a format this client does not know (a newer client's),
 * matching its metadata, keeps every chunk of the version, and the sweep goes on instead of failing on it.
 */
class SweepManifestFormatTest {
    private static final String PREFIX = "hybris/";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("c0"),
            new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    private final List<Hybris> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(Hybris::close);
    }

    private Hybris client() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).deadline(Duration.ofSeconds(10))
                .sweepInterval(Duration.ZERO);
        clouds.forEach(b::cloud);
        Hybris h = Hybris.open(b.build());
        open.add(h);
        return h;
    }

    private Map<String, List<String>> objects() {
        Map<String, List<String>> all = new TreeMap<>();
        clouds.forEach(c -> all.put(c.id(), c.list(PREFIX).stream().map(CloudObject::key).sorted().toList()));
        return all;
    }

    @Test
    void aManifestOfAnUnknownFormatKeepsEveryChunkAndTheSweepGoesOn() throws Exception {
        Hybris h = client();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start("c", "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(new byte[100]), 100);
        VersionInfo done = parts.complete(upload, List.of(p1), PutOptions.none());
        MetadataKey mk = new MetadataKey("c", "k");
        VersionedValue entry = metadata.read(mk).orElseThrow();
        Metadata meta = MetadataCodec.decode(entry.value());
        ObjectKey version = new ObjectKey("c", "k", meta.timestamp());
        // a chunk its manifest does not name (a part attempt left out), which a readable manifest would let go
        String stray = version.renderChunk(PREFIX, (7L << 45) | 1);
        clouds.get(0).put(stray, new byte[10]);
        byte[] future = {9, 0, 0, 0};
        for (String id : done.clouds()) {
            clouds.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow().put(version.render(PREFIX),
                    future);
        }
        Metadata newer = new Metadata(meta.timestamp(), meta.clouds(), Hashing.sha256(future), future.length,
                meta.encryption(), meta.cacheCounter(), meta.erasure(), meta.chunked(), meta.userMetadata(),
                meta.conditional());
        metadata.conditionalUpdate(new MetadataUpdate(mk, MetadataCodec.encode(newer), entry.version()));
        Map<String, List<String>> before = objects();

        SweepReport report = client().sweepOrphans();

        assertThat(report.failed()).as(report.toString()).isZero();
        assertThat(report.deleted()).as(report.toString()).isZero();
        assertThat(objects()).isEqualTo(before);
        assertThat(before.get("c0")).contains(stray);
    }
}
