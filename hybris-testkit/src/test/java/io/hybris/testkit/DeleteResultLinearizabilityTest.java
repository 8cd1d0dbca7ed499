/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.testkit.LinearizabilityChecker.Verdict;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.hybris.testkit.RegisterHistory.UNKNOWN_RESPONSE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checker judges what a DELETE returned: a delete that returned a version found a value to delete, one that
 * returned empty found none. Before, a delete's return was ignored, so two concurrent deletes both claiming to
 * delete one value passed as linearizable.
 */
class DeleteResultLinearizabilityTest {

    private static Op w(int c, String v, long a, long b) {
        return new Op(c, Kind.WRITE, "k", v, a, b);
    }

    private static Op r(int c, String v, long a, long b) {
        return new Op(c, Kind.READ, "k", v, a, b);
    }

    private static Op deleted(int c, long a, long b) {
        return Op.delete(c, "k", true, a, b);
    }

    private static Op nothing(int c, long a, long b) {
        return Op.delete(c, "k", false, a, b);
    }

    private static Verdict verdict(Op... ops) {
        return LinearizabilityChecker.check(List.of(ops)).verdict();
    }

    @Test
    void ofTwoConcurrentDeletesOfOneValueOnlyOneDeletedIt() {
        assertThat(verdict(w(0, "a", 0, 1), deleted(1, 2, 10), deleted(2, 3, 9), r(3, null, 11, 12)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), deleted(1, 2, 10), nothing(2, 3, 9), r(3, null, 11, 12)))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), nothing(1, 2, 10), deleted(2, 3, 9), r(3, null, 11, 12)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // the deletes' returns not recorded: nothing to judge, as before
        assertThat(verdict(w(0, "a", 0, 1), new Op(1, Kind.DELETE, "k", null, 2, 10),
                new Op(2, Kind.DELETE, "k", null, 3, 9), r(3, null, 11, 12))).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aDeleteThatFoundAValueNeedsOne() {
        assertThat(verdict(deleted(0, 0, 1))).isEqualTo(Verdict.NOT_LINEARIZABLE); // never written
        assertThat(verdict(w(0, "a", 0, 1), deleted(1, 2, 3), deleted(1, 4, 5))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        // a concurrent write gives the second delete its value
        assertThat(verdict(w(0, "a", 0, 1), deleted(1, 2, 3), w(2, "b", 3, 6), deleted(1, 4, 5)))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aDeleteThatFoundNothingNeedsAnAbsentKey() {
        assertThat(verdict(w(0, "a", 0, 1), nothing(1, 2, 3))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(nothing(1, 0, 1), w(0, "a", 2, 3), r(2, "a", 4, 5))).isEqualTo(Verdict.LINEARIZABLE);
        // overlapping the write, it may come first
        assertThat(verdict(w(0, "a", 0, 3), nothing(1, 1, 2), r(2, "a", 4, 5))).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void unknownOutcomesCanExplainWhatADeleteFound() {
        // the unknown write x is the value the delete found, though no read returns it: it must not be dropped
        assertThat(verdict(w(1, "x", 0, UNKNOWN_RESPONSE), deleted(0, 2, 3))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(deleted(0, 0, 1), w(1, "x", 2, UNKNOWN_RESPONSE))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        // the unknown delete is why the second delete found nothing, though no read returns absent
        assertThat(verdict(w(0, "a", 0, 1), new Op(1, Kind.DELETE, "k", null, 2, UNKNOWN_RESPONSE),
                nothing(2, 3, 4))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), nothing(2, 3, 4), new Op(1, Kind.DELETE, "k", null, 5,
                UNKNOWN_RESPONSE))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void longHistoriesWithDeleteResultsStayDecidable() {
        // rounds of: a write, two overlapping deletes of which exactly one deleted it, an unknown-outcome write that
        // a read then returns (so it took effect before that read ended)
        List<Op> ops = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 200; i++) {
            ops.add(w(0, "v" + i, t, t + 1));
            ops.add(deleted(1 + i % 2, t + 2, t + 5));
            ops.add(nothing(2 - i % 2, t + 3, t + 6));
            ops.add(w(3, "u" + i, t + 7, UNKNOWN_RESPONSE));
            ops.add(r(4, "u" + i, t + 8, t + 9));
            t += 10;
        }
        ops.add(deleted(5, t, t + 1)); // deletes u199
        assertThat(LinearizabilityChecker.check(ops, 100_000).verdict()).isEqualTo(Verdict.LINEARIZABLE);
        ops.add(deleted(5, t + 2, t + 3)); // but not twice
        assertThat(LinearizabilityChecker.check(ops, 100_000).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aDeleteRecordsWhatItReturnedOnlyWhenItReturned() {
        assertThat(Op.delete(0, "k", true, 0, 1).value()).isEqualTo(RegisterHistory.DELETED);
        assertThat(Op.delete(0, "k", false, 0, 1).toString()).contains("nothing deleted");
        assertThatThrownBy(() -> new Op(0, Kind.DELETE, "k", RegisterHistory.DELETED, 0, UNKNOWN_RESPONSE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Op(0, Kind.DELETE, "k", "a", 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
