/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A change-log compaction moves the log's {@code compacted} marker first and deletes the records it covers after.
 * A client that dies in between (a killed process, a delete transaction that fails) leaves those records below the
 * marker, where no reader looks any more: the next compaction must delete them too, or they stay in Consul for
 * good, a leak of every commit's keys and metadata that grows with each such failure.
 */
class ConsulCompactionRecoveryTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    /** A tenth of it is under 1, so every commit compacts (ChangeLogCompaction.interval). */
    private static final int RETENTION = 3;

    private static ConsulMetadataStore open(String prefix) {
        return ConsulMetadataStore.builder().address(CONSUL.address()).keyPrefix(prefix)
                .changesRetention(RETENTION).build();
    }

    private static void create(ConsulMetadataStore store, int from, int to) throws Exception {
        for (int i = from; i <= to; i++) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("c", "k" + i),
                    ("v" + i).getBytes(StandardCharsets.UTF_8), MetadataVersion.ABSENT));
        }
    }

    /** The sequence numbers of the log's records. */
    private static List<Long> records(ConsulHttp http, String log) {
        return http.keys(log + "log/").stream().map(k -> Long.parseLong(k.substring(k.lastIndexOf('/') + 1)))
                .sorted().toList();
    }

    @Test
    void recordsLeftBelowTheMarkerByACompactionThatDiedAreDeletedByALaterOne() throws Exception {
        String prefix = CONSUL.uniquePrefix("compact-");
        String log = prefix + "/.changes/c/";
        ConsulHttp http = new ConsulHttp(CONSUL.address());
        try (ConsulMetadataStore store = open(prefix)) {
            create(store, 1, 6);
        } // close lets the last compaction finish
        assertThat(records(http, log)).containsExactly(4L, 5L, 6L);

        // what a client leaves that moved the marker to 5 and died before deleting records 4 and 5
        http.put(log + "compacted", "5".getBytes(StandardCharsets.US_ASCII));

        try (ConsulMetadataStore store = open(prefix)) {
            create(store, 7, 10);
        }
        assertThat(new String(http.rawValue(log + "compacted"), StandardCharsets.US_ASCII)).isEqualTo("7");
        assertThat(records(http, log)).as("records of the log after the last compaction (marker 7)")
                .containsExactly(8L, 9L, 10L);
    }
}
