/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The names of change-log records: ZooKeeper's 10-digit sequential suffix, one less than the record's number. */
class ZooKeeperChangeLogNamesTest {
    @Test
    void aRecordsPathIsItsNumberLessOneZeroPaddedToTenDigits() {
        assertThat(ZooKeeperChangeLog.child("/root/.changes/box", 1)).isEqualTo("/root/.changes/box/c-0000000000");
        assertThat(ZooKeeperChangeLog.child("/l", 12_346)).isEqualTo("/l/c-0000012345");
        assertThat(ZooKeeperChangeLog.child("/l", 2_147_483_647L)).isEqualTo("/l/c-2147483646");
    }

    @Test
    void sequencesAreTheSuffixesPlusOneAscendingWithOtherNamesIgnored() {
        List<String> children = List.of("c-0000000042", "c-0000000007", "other", "c-00000000x1", "c-000000001",
                "d-0000000003", "c-0000012345", "c-0000000000");

        assertThat(ZooKeeperChangeLog.sequences(children)).containsExactly(1, 8, 43, 12_346);
        assertThat(ZooKeeperChangeLog.sequences(List.of())).isEmpty();
    }

    @Test
    void aPathAndTheSequenceParsedFromItsNameAgree() {
        for (long sequence : new long[] {1, 9, 10, 11, 999_999, 1_000_000_001L}) {
            String path = ZooKeeperChangeLog.child("/log", sequence);
            String name = path.substring(path.lastIndexOf('/') + 1);
            assertThat(ZooKeeperChangeLog.sequences(List.of(name))).containsExactly(sequence);
        }
    }
}
