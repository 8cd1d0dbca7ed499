package io.hybris.testkit;

import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LinearizabilityCheckerTest {

    private static Op w(int c, String key, String v, long a, long b) {
        return new Op(c, Kind.WRITE, key, v, a, b);
    }

    private static Op r(int c, String key, String v, long a, long b) {
        return new Op(c, Kind.READ, key, v, a, b);
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
}
