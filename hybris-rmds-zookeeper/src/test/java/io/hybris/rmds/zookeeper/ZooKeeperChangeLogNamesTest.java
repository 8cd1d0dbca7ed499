/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The names of change-log records: ZooKeeper's 10-digit sequential suffix, one less than the record's number, in the
 * generation the number's upper half names ({@link ChangeLogNames}).
 */
class ZooKeeperChangeLogNamesTest {
    private static final long GENERATION = 1L << 32;

    @Test
    void aRecordsPathIsItsNumberLessOneZeroPaddedToTenDigits() {
        assertThat(ChangeLogNames.child("/root/.changes/box", 1)).isEqualTo("/root/.changes/box/c-0000000000");
        assertThat(ChangeLogNames.child("/l", 12_346)).isEqualTo("/l/c-0000012345");
        assertThat(ChangeLogNames.child("/l", 2_147_483_647L)).isEqualTo("/l/c-2147483646");
        assertThat(ChangeLogNames.child("/l", 2_147_483_648L)).isEqualTo("/l/c-2147483647");
    }

    @Test
    void namesPastTheLastAreTheWrappedCountAsTheServerFormatsIt() {
        assertThat(ChangeLogNames.child("/l", 2_147_483_649L)).isEqualTo("/l/c--2147483648");
        assertThat(ChangeLogNames.child("/l", 2_147_483_650L)).isEqualTo("/l/c--2147483647");
        assertThat(ChangeLogNames.child("/l", GENERATION)).isEqualTo("/l/c--000000001")
                .endsWith(String.format(Locale.ENGLISH, "%010d", -1));
    }

    @Test
    void laterGenerationsAreChildrenOfTheLogNumberedFromTwoToThe32() {
        assertThat(ChangeLogNames.generationPath("/l", 0)).isEqualTo("/l");
        assertThat(ChangeLogNames.generationPath("/l", 3))
                .isEqualTo("/l.g-0000000003");
        assertThat(ChangeLogNames.child("/l", GENERATION + 1)).isEqualTo("/l.g-0000000001/c-0000000000");
        assertThat(ChangeLogNames.child("/l", 2 * GENERATION + 43)).isEqualTo("/l.g-0000000002/c-0000000042");
        assertThat(ChangeLogNames.generation(0)).isZero();
        assertThat(ChangeLogNames.generation(GENERATION)).isZero();
        assertThat(ChangeLogNames.generation(GENERATION + 1)).isEqualTo(1);
        assertThat(ChangeLogNames.isLastNamed(2_147_483_648L)).isTrue();
        assertThat(ChangeLogNames.isLastNamed(GENERATION + 2_147_483_648L)).isTrue();
        assertThat(ChangeLogNames.isLastNamed(2_147_483_647L)).isFalse();
    }

    @Test
    void sequencesAreTheSuffixesPlusOneAscendingWithOtherNamesIgnored() {
        List<String> children = List.of("c-0000000042", "c-0000000007", "other", "c-00000000x1", "c-000000001",
                "d-0000000003", "c-0000012345", "c-0000000000", "g-0000000001", "c-2147483648", "c--0000000001",
                "c--2147483649", "c-+000000001");

        assertThat(ChangeLogNames.sequences(children, 0)).containsExactly(1, 8, 43, 12_346);
        assertThat(ChangeLogNames.sequences(List.of("c-0000000000", "c--2147483648"), 1))
                .containsExactly(GENERATION + 1, GENERATION + 2_147_483_649L);
        assertThat(ChangeLogNames.sequences(List.of(), 0)).isEmpty();
    }

    @Test
    void aPathAndTheSequenceParsedFromItsNameAgree() {
        for (long sequence : new long[] {1, 9, 10, 11, 999_999, 1_000_000_001L, 2_147_483_648L, 2_147_483_649L,
                2_147_483_700L, GENERATION, GENERATION + 1, 5 * GENERATION + 77}) {
            String path = ChangeLogNames.child("/log", sequence);
            String name = path.substring(path.lastIndexOf('/') + 1);
            assertThat(ChangeLogNames.sequences(List.of(name), ChangeLogNames.generation(sequence)))
                    .as(path).containsExactly(sequence);
        }
    }
}
