/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.testkit.LinearizabilityChecker.Result;
import io.hybris.testkit.LinearizabilityChecker.Verdict;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.hybris.testkit.RegisterHistory.UNKNOWN_RESPONSE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LinearizabilityCheckerTest {

    private static Op w(int c, String key, String v, long a, long b) {
        return new Op(c, Kind.WRITE, key, v, a, b);
    }

    private static Op r(int c, String key, String v, long a, long b) {
        return new Op(c, Kind.READ, key, v, a, b);
    }

    private static Op d(int c, String key, long a, long b) {
        return new Op(c, Kind.DELETE, key, null, a, b);
    }

    @Test
    void sequentialHistoryIsLinearizable() {
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), r(1, "k", "a", 2, 3), new Op(0, Kind.DELETE, "k", null, 4, 5),
                r(1, "k", null, 6, 7))).linearizable()).isTrue();
    }

    @Test
    void staleReadAfterACompletedWriteIsRejected() {
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(0, "k", "b", 2, 3), r(1, "k", "a", 4, 5)));
        assertThat(result.linearizable()).isFalse();
        assertThat(result.counterexampleKey()).hasValue("k");
    }

    @Test
    void readOfNeverWrittenValueIsRejected() {
        assertThat(LinearizabilityChecker.check(List.of(w(0, "k", "a", 0, 10), r(1, "k", "zzz", 1, 2)))
                .linearizable()).isFalse();
    }

    @Test
    void newOldInversionBetweenReadersIsRejected() {
        // write b overlaps both reads; reader 1 sees b and finishes, then reader 2 starts and sees the older a
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(0, "k", "b", 2, 20), r(1, "k", "b", 3, 4), r(2, "k", "a", 5, 6)))
                .linearizable()).isFalse();
    }

    @Test
    void concurrentOperationsMayBeOrderedEitherWay() {
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 10), w(1, "k", "b", 1, 9), r(2, "k", "a", 11, 12), r(3, "k", "a", 13, 14)))
                .linearizable()).isTrue();
    }

    @Test
    void unknownOutcomeWriteMayTakeEffectLateOrNever() {
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(1, "k", "x", 2, RegisterHistory.UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4),
                r(2, "k", "x", 5, 6))).linearizable()).isTrue();
    }

    @Test
    void keysAreCheckedIndependently() {
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(List.of(
                w(0, "x", "a", 0, 1), r(1, "x", "a", 2, 3), w(0, "y", "b", 0, 1), r(1, "y", null, 2, 3)));
        assertThat(result.linearizable()).isFalse();
        assertThat(result.counterexampleKey()).hasValue("y");
    }

    /** The per-round history of {@link #largeConcurrentHistoryIsChecked}: linearizable, with backtracking. */
    private static List<Op> concurrentRounds(String key, int rounds) {
        List<Op> ops = new ArrayList<>();
        long t = 0;
        String last = null;
        for (int round = 0; round < rounds; round++) {
            for (int c = 0; c < 4; c++) {
                ops.add(w(c, key, key + round + "-" + c, t + c, t + 20));
            }
            for (int c = 4; c < 8; c++) {
                ops.add(r(c, key, last, t + c, t + 10));
            }
            last = key + "seq" + round;
            ops.add(w(9, key, last, t + 21, t + 22));
            t += 23;
        }
        return ops;
    }

    @Test
    void largeConcurrentHistoryIsChecked() {
        // per round: 4 overlapping writers, 4 readers that still see the previous value, then one sequential write
        List<Op> ops = new ArrayList<>();
        long t = 0;
        String last = null;
        for (int round = 0; round < 100; round++) {
            for (int c = 0; c < 4; c++) {
                ops.add(w(c, "k", "v" + round + "-" + c, t + c, t + 20));
            }
            for (int c = 4; c < 8; c++) {
                ops.add(r(c, "k", last, t + c, t + 10));
            }
            last = "seq" + round;
            ops.add(w(9, "k", last, t + 21, t + 22));
            t += 23;
        }
        assertThat(LinearizabilityChecker.check(ops).linearizable()).isTrue();
        ops.add(r(9, "k", "v99-0", t + 1, t + 2)); // overwritten by seq99 before this read started
        assertThat(LinearizabilityChecker.check(ops).linearizable()).isFalse();
    }

    @Test
    void aKeyWhoseSearchRunsOutOfBudgetIsUndecidedNeverPassed() {
        List<Op> ops = concurrentRounds("k", 20);
        Result tiny = LinearizabilityChecker.check(ops, 10);
        assertThat(tiny.verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(tiny.byKey()).containsExactly(Map.entry("k", Verdict.UNDECIDED));
        assertThat(tiny.undecidedKeys()).containsExactly("k");
        assertThat(tiny.linearizable()).isFalse();
        assertThat(tiny.counterexampleKey()).isEmpty();

        Result big = LinearizabilityChecker.check(ops, 1_000_000);
        assertThat(big.verdict()).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(big.byKey()).containsExactly(Map.entry("k", Verdict.LINEARIZABLE));
        assertThat(big.linearizable()).isTrue();
        assertThat(big.statesExplored()).isGreaterThan(10);
        assertThat(LinearizabilityChecker.check(ops).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aNonLinearizableHistoryOutOfBudgetIsUndecidedNotNotLinearizable() {
        List<Op> ops = new ArrayList<>(concurrentRounds("k", 20));
        ops.add(r(9, "k", "k19-0", 10_000, 10_001)); // overwritten by kseq19 long before
        assertThat(LinearizabilityChecker.check(ops, 10).verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(LinearizabilityChecker.check(ops, 1_000_000).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void everyKeyIsCheckedAndReported() {
        List<Op> ops = new ArrayList<>();
        ops.addAll(List.of(w(0, "bad1", "a", 0, 1), w(0, "bad1", "b", 2, 3), r(1, "bad1", "a", 4, 5)));
        ops.addAll(List.of(w(0, "good", "a", 0, 1), r(1, "good", "a", 2, 3)));
        ops.addAll(List.of(w(0, "bad2", "a", 0, 1), r(1, "bad2", null, 2, 3)));
        ops.addAll(concurrentRounds("slow", 20));
        Result result = LinearizabilityChecker.check(ops, 100);
        assertThat(result.byKey()).containsExactly(Map.entry("bad1", Verdict.NOT_LINEARIZABLE),
                Map.entry("good", Verdict.LINEARIZABLE), Map.entry("bad2", Verdict.NOT_LINEARIZABLE),
                Map.entry("slow", Verdict.UNDECIDED));
        assertThat(result.verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(result.nonLinearizableKeys()).containsExactly("bad1", "bad2");
        assertThat(result.undecidedKeys()).containsExactly("slow");
        assertThat(result.counterexampleKey()).hasValue("bad1");
        assertThat(result.linearizable()).isFalse();
        assertThat(result.operationsChecked()).isEqualTo(ops.size());

        Result decided = LinearizabilityChecker.check(ops, 1_000_000);
        assertThat(decided.byKey()).containsEntry("slow", Verdict.LINEARIZABLE);
        assertThat(decided.nonLinearizableKeys()).containsExactly("bad1", "bad2");
    }

    @Test
    void budgetMustBePositive() {
        assertThatThrownBy(() -> LinearizabilityChecker.check(List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(LinearizabilityChecker.check(List.of()).linearizable()).isTrue();
    }

    @Test
    void unknownOutcomeWritesThatNeverTookEffect() {
        // x is never observed: it never took effect (or did so only after everything else)
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(1, "k", "x", 2, UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4),
                r(2, "k", "a", 5, 6), w(0, "k", "b", 7, 8), r(2, "k", "b", 9, 10))).verdict())
                .isEqualTo(Verdict.LINEARIZABLE);
        // the same without the rewrites, so the search itself must leave x out until the end
        assertThat(LinearizabilityChecker.checkKey(List.of(
                w(0, "k", "a", 0, 1), w(1, "k", "x", 2, UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4),
                r(2, "k", "a", 5, 6), w(0, "k", "b", 7, 8), r(2, "k", "b", 9, 10)), 1000, new long[1]))
                .isEqualTo(Verdict.LINEARIZABLE);
        // a delete whose effect (absent) is observable elsewhere, so it is kept for the search, yet never applied
        assertThat(LinearizabilityChecker.check(List.of(
                r(2, "k", null, 0, 1), w(0, "k", "a", 2, 3), d(1, "k", 4, UNKNOWN_RESPONSE), r(2, "k", "a", 5, 6),
                r(2, "k", "a", 7, 8))).verdict()).isEqualTo(Verdict.LINEARIZABLE);
        // an unknown-outcome read observed nothing
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), r(2, "k", "zzz", 2, UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4))).verdict())
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void unknownOutcomeWritesThatTookEffect() {
        // x took effect late, long after its call returned with an unknown outcome
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(1, "k", "x", 2, UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4),
                r(2, "k", "a", 5, 6), r(2, "k", "x", 7, 8), r(3, "k", "x", 9, 10))).verdict())
                .isEqualTo(Verdict.LINEARIZABLE);
        // an unknown-outcome delete took effect
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), d(1, "k", 2, UNKNOWN_RESPONSE), r(2, "k", "a", 3, 4),
                r(2, "k", null, 5, 6))).verdict()).isEqualTo(Verdict.LINEARIZABLE);
        // once x was read it has taken effect: the older a cannot come back
        assertThat(LinearizabilityChecker.check(List.of(
                w(0, "k", "a", 0, 1), w(1, "k", "x", 2, UNKNOWN_RESPONSE), r(2, "k", "x", 3, 4),
                r(2, "k", "a", 5, 6))).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
        // nor can x be read before it was written
        assertThat(LinearizabilityChecker.check(List.of(
                r(2, "k", "x", 0, 1), w(1, "k", "x", 2, UNKNOWN_RESPONSE))).verdict())
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    /**
     * Rounds of: a completed write, a write with an unknown outcome, a read of the completed write, and (every
     * other round) a later read of the unknown write; then a final read of a long-overwritten value.
     */
    private static List<Op> manyUnknownOutcomes(int rounds) {
        List<Op> ops = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < rounds; i++) {
            ops.add(w(0, "k", "a" + i, t, t + 1));
            ops.add(w(1, "k", "u" + i, t + 2, UNKNOWN_RESPONSE));
            ops.add(r(2, "k", "a" + i, t + 3, t + 4));
            if (i % 2 == 0) {
                ops.add(r(3, "k", "u" + i, t + 5, t + 6));
            }
            t += 10;
        }
        ops.add(r(2, "k", "a0", t, t + 1));
        return ops;
    }

    @Test
    void manyUnknownOutcomesStayDecidable() {
        List<Op> bad = manyUnknownOutcomes(40);
        // without the rewrites every unknown-outcome write stays pending to the end: 2^40 subsets to refute
        assertThat(LinearizabilityChecker.checkKey(bad, 200_000, new long[1])).isEqualTo(Verdict.UNDECIDED);
        Result result = LinearizabilityChecker.check(bad, 200_000);
        assertThat(result.verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(result.statesExplored()).isLessThan(10_000);

        List<Op> good = manyUnknownOutcomes(40);
        good.remove(good.size() - 1);
        Result ok = LinearizabilityChecker.check(good, 200_000);
        assertThat(ok.verdict()).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(ok.statesExplored()).isLessThan(10_000);
    }

    @Test
    void overlappingPairsCountsConcurrentSameKeyPairsWithAWrite() {
        assertThat(LinearizabilityChecker.overlappingPairs(List.of(
                w(0, "k", "a", 0, 10), r(1, "k", "a", 5, 6), // overlap, one a write: counted
                r(2, "k", "a", 5, 7), // overlaps the write (counted) and the other read (two reads: not counted)
                w(0, "k", "b", 8, 9), // same client as the first write: not counted with it; overlaps no read
                w(3, "j", "c", 0, 10), // another key
                w(4, "k", "d", 10, 11), // touches the first write at 10: not overlapping
                d(5, "k", 20, UNKNOWN_RESPONSE), w(6, "k", "e", 30, 31)))) // unknown outcome: overlaps later ops
                .isEqualTo(3);
    }
}
