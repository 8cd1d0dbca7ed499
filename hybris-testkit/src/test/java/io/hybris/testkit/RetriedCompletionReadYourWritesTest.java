/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.ReadOptions;
import io.hybris.ReadSettings;
import io.hybris.UploadedPart;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-your-writes and uploads in parts: a completion retried on a client whose first attempt ran elsewhere
 * (a gateway node that lost the answer) returns the committed version as this call's own; a read-your-writes
 * read on that client must not then serve an older own write.
 */
class RetriedCompletionReadYourWritesTest {
    private static final String C = "docs";
    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final MapCache cache = new MapCache();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    private Hybris open(String clientId) {
        return opened.open(OpenedClients.config(metadata, raw).clientId(clientId).deadline(Duration.ofSeconds(20))
                .reads(ReadSettings.builder().hedge(false).build()).cache(CacheSettings.builder().cache(cache).build()));
    }

    @Test
    void readYourWritesAfterARetriedCompletionReturnsTheCompletedValue() {
        Hybris a = open("a");
        Hybris b = open("b");
        a.put(C, "k", "old".getBytes());
        PartUpload up = PartUploads.of(a).start(C, "k");
        byte[] part = "the value uploaded in parts".getBytes();
        UploadedPart p1 = PartUploads.of(a).upload(up, 1, new ByteArrayInputStream(part), part.length);
        VersionInfo first = PartUploads.of(b).complete(up, List.of(p1), PutOptions.none()); // answer lost
        VersionInfo retried = PartUploads.of(a).complete(up, List.of(p1), PutOptions.none()); // the retry
        assertThat(retried.version()).isEqualTo(first.version());
        assertThat(a.get(C, "k", ReadOptions.readYourWrites())).hasValueSatisfying(v -> assertThat(new String(v))
                .isEqualTo(new String(part)));
    }
}
