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
 * The checker's model of conditional writes and deletes: a call that succeeded took effect where its precondition
 * held (the value it required was current, or the key absent for ifAbsent), one that failed its precondition
 * changed nothing where the precondition did not hold, and one with an unknown outcome may have taken effect
 * (where it held) or not.
 */
class ConditionalLinearizabilityTest {

    private static Op w(int c, String v, long a, long b) {
        return new Op(c, Kind.WRITE, "k", v, a, b);
    }

    private static Op r(int c, String v, long a, long b) {
        return new Op(c, Kind.READ, "k", v, a, b);
    }

    /** PUT {@code v} ifMatch {@code expected} (null: ifAbsent), succeeded or failed its precondition. */
    private static Op cas(int c, String v, String expected, boolean held, long a, long b) {
        return Op.conditional(c, Kind.WRITE, "k", v, expected, held, a, b);
    }

    /** DELETE ifMatch {@code expected}, succeeded or failed its precondition. */
    private static Op casDelete(int c, String expected, boolean held, long a, long b) {
        return Op.conditional(c, Kind.DELETE, "k", null, expected, held, a, b);
    }

    private static Verdict verdict(Op... ops) {
        return LinearizabilityChecker.check(List.of(ops)).verdict();
    }

    @Test
    void anIfMatchWriteSucceedsOnlyOverTheValueItRequired() {
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", "a", true, 2, 3), r(2, "b", 4, 5)))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), w(0, "x", 2, 3), cas(1, "b", "a", true, 4, 5)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        // two successes on one value: one of them must find the other's value
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", "a", true, 2, 10), cas(2, "c", "a", true, 3, 9)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", "a", true, 2, 10), cas(2, "c", "b", true, 3, 9)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // a plain write linearized between the required value and the conditional write breaks it
        assertThat(verdict(w(0, "a", 0, 1), w(1, "p", 2, 10), cas(2, "c", "a", true, 3, 9), r(3, "c", 11, 12)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), w(1, "p", 2, 10), cas(2, "c", "a", true, 3, 9), r(3, "p", 11, 12)))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aFailedPreconditionNeedsAnotherStateAndChangesNothing() {
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", "a", false, 2, 3))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), w(0, "x", 2, 3), cas(1, "b", "a", false, 4, 5), r(2, "x", 6, 7)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // a failed write is never seen
        assertThat(verdict(w(0, "a", 0, 1), w(0, "x", 2, 3), cas(1, "b", "a", false, 4, 5), r(2, "b", 6, 7)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        // a concurrent write explains the failure
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", "a", false, 2, 5), w(0, "x", 3, 4)))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", false, 2, 3))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void ifAbsentNeedsNoValueAndFailsOnlyOverOne() {
        assertThat(verdict(cas(0, "a", null, true, 0, 1), r(1, "a", 2, 3))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(cas(0, "a", null, false, 0, 1))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", null, true, 2, 3))).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "b", null, false, 2, 3))).isEqualTo(Verdict.LINEARIZABLE);
        // deleted, the key is absent again
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, 3), cas(1, "b", null, true, 4, 5),
                r(2, "b", 6, 7))).isEqualTo(Verdict.LINEARIZABLE);
        // two creators of one key: only one succeeds
        assertThat(verdict(cas(0, "a", null, true, 0, 5), cas(1, "b", null, true, 1, 4)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aConditionalDeleteRemovesOnlyTheValueItRequired() {
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, 3), r(2, null, 4, 5)))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, 3), r(2, "a", 4, 5)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, 10), casDelete(2, "a", true, 3, 9)))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, 10), casDelete(2, "a", false, 3, 9)))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void unknownOutcomesMayExplainWhatConditionalCallsFound() {
        // the unknown write x is what the conditional write required, though no read returns it
        assertThat(verdict(w(1, "x", 0, UNKNOWN_RESPONSE), cas(0, "b", "x", true, 2, 3)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // and the unknown write u is why a failure saw something other than a, though nothing else saw u
        assertThat(verdict(w(0, "a", 0, 1), w(1, "u", 2, UNKNOWN_RESPONSE), cas(2, "b", "a", false, 3, 4)))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(w(0, "a", 0, 1), casDelete(1, "a", true, 2, UNKNOWN_RESPONSE),
                cas(2, "b", null, true, 3, 4))).isEqualTo(Verdict.LINEARIZABLE);
        // unknown, it may also never have taken effect
        assertThat(verdict(w(0, "a", 0, 1), cas(1, "u", "a", true, 2, UNKNOWN_RESPONSE), r(2, "a", 3, 4)))
                .isEqualTo(Verdict.LINEARIZABLE);
        // but it needed its precondition when it did: u cannot follow b
        assertThat(verdict(w(0, "a", 0, 1), w(0, "b", 2, 3), cas(1, "u", "a", true, 4, UNKNOWN_RESPONSE),
                r(2, "u", 5, 6))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void longReadModifyWriteHistoriesStayDecidable() {
        // rounds of: two read-modify-writes racing on the current value (one wins, one fails) and a plain write
        // overlapping them; a few unknown conditional writes no one saw
        List<Op> ops = new ArrayList<>();
        long t = 0;
        String current = "v";
        ops.add(w(0, current, t, t + 1));
        for (int i = 0; i < 200; i++) {
            t += 2;
            ops.add(cas(1, "a" + i, current, true, t, t + 4));
            ops.add(cas(2, "b" + i, current, false, t + 1, t + 5));
            if (i % 50 == 0) {
                ops.add(cas(3, "u" + i, "a" + i, true, t + 6, UNKNOWN_RESPONSE));
            }
            ops.add(w(4, "p" + i, t + 6, t + 8));
            ops.add(r(5, "p" + i, t + 9, t + 10));
            current = "p" + i;
            t += 10;
        }
        assertThat(LinearizabilityChecker.check(ops, 200_000).verdict()).isEqualTo(Verdict.LINEARIZABLE);
        ops.add(cas(6, "late", "a0", true, t + 1, t + 2)); // a0 was overwritten long ago
        assertThat(LinearizabilityChecker.check(ops, 200_000).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aPreconditionBelongsToAWriteOrADelete() {
        assertThatThrownBy(() -> Op.conditional(0, Kind.READ, "k", "a", "a", true, 0, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Op.conditional(0, Kind.WRITE, "k", "a", "b", false, 0, UNKNOWN_RESPONSE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Op.conditional(0, Kind.DELETE, "k", null, "a", false, 0, 1).toString())
                .contains("ifMatch a -> precondition failed");
        assertThat(Op.conditional(0, Kind.WRITE, "k", "a", null, true, 0, 1).toString()).contains("ifAbsent");
    }
}
