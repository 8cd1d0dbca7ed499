/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.testkit.RegisterHistory;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The campaign's checks over a history, on small hand-written histories. */
class HistoryChecksTest {
    private static final long MS = 1_000_000;

    @Test
    void aFinalReadOfAWriteThatALaterAcknowledgedWriteFollowedIsALostWrite() {
        Op first = new Op(1, Kind.WRITE, "k", "a", 0, 10 * MS);
        Op second = new Op(2, Kind.WRITE, "k", "b", 20 * MS, 30 * MS);
        Op read = new Op(-1, Kind.READ, "k", "a", 40 * MS, 50 * MS);

        HistoryChecks.Verdict verdict = HistoryChecks.check(List.of(first, second, read), Map.of("k", read), List.of());

        assertThat(verdict.lostWrites()).singleElement().asString().startsWith("k: the final read returned a")
                .contains("lost");
        assertThat(verdict.notLinearizable()).containsExactly("k");
    }

    @Test
    void aFinalReadOfAConcurrentOrUnknownWriteIsNoLostWrite() {
        Op first = new Op(1, Kind.WRITE, "k", "a", 0, 30 * MS);
        Op second = new Op(2, Kind.WRITE, "k", "b", 20 * MS, 25 * MS);
        Op unknown = new Op(3, Kind.WRITE, "k", "c", 26 * MS, RegisterHistory.UNKNOWN_RESPONSE);
        Op read = new Op(-1, Kind.READ, "k", "c", 40 * MS, 50 * MS);

        HistoryChecks.Verdict verdict = HistoryChecks.check(List.of(first, second, unknown, read), Map.of("k", read),
                List.of());

        assertThat(verdict.lostWrites()).isEmpty();
        assertThat(verdict.notLinearizable()).isEmpty();
        assertThat(verdict.linearizable()).isEqualTo(1);
    }

    @Test
    void describeListsOneKeysOperationsInInvokeOrderWithTimesFromTheFirstInvoke() {
        Op later = new Op(2, Kind.WRITE, "k", "b", 120 * MS, RegisterHistory.UNKNOWN_RESPONSE);
        Op other = new Op(3, Kind.WRITE, "other", "x", 0, MS);
        Op first = new Op(1, Kind.DELETE, "k", null, 100 * MS, 105_500_000);

        Recorder.FailedWrite failed = new Recorder.FailedWrite(4, "tput", "k", "c", 110 * MS,
                "TransactionAbortedException");

        String text = HistoryChecks.describe(List.of(later, other, first), List.of(failed), "k");

        assertThat(text.lines().map(String::strip).toList()).containsExactly(
                "client1 DELETE                  [0.000, 5.500]",
                "client4 FAILED c                [10.000, failed: tput TransactionAbortedException, not in the history]",
                "client2 WRITE  b                [20.000, ?]");
    }

    @Test
    void aReadOfTheValueOfAWriteReportedFailedIsNamed() {
        Op write = new Op(1, Kind.WRITE, "k", "a", 0, 10 * MS);
        Op read = new Op(2, Kind.READ, "k", "c", 20 * MS, 30 * MS);
        Recorder.FailedWrite failed = new Recorder.FailedWrite(3, "tput", "k", "c", 5 * MS,
                "TransactionAbortedException");
        Recorder.FailedWrite elsewhere = new Recorder.FailedWrite(3, "tput", "other", "a", 5 * MS,
                "TransactionAbortedException");

        HistoryChecks.Verdict verdict = HistoryChecks.check(List.of(write, read), Map.of(),
                List.of(failed, elsewhere));

        assertThat(verdict.failedWritesRead()).singleElement().asString()
                .startsWith("client2 READ(k, c)").contains("client3's tput").contains("TransactionAbortedException");
        assertThat(verdict.notLinearizable()).containsExactly("k");
    }
}
