/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.internal.LatencyRanking.Op;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyRankingTest {
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final List<String> CLOUDS = List.of("a", "b", "c");

    private final LatencyRanking ranking =
            new LatencyRanking(CLOUDS, Duration.ofMillis(10), Duration.ofMillis(100), 3.0);

    @Test
    void rankFromTopTakesTheOrderStatisticSortingWouldGive() {
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 2_000; round++) {
            int count = 1 + random.nextInt(LatencyRanking.ReadSamples.CAPACITY);
            long[] values = new long[count + 3]; // entries past count must be ignored
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(8); // many ties
            }
            long[] sorted = java.util.Arrays.copyOf(values, count);
            java.util.Arrays.sort(sorted);
            int above = random.nextInt(count);
            assertThat(LatencyRanking.rankFromTop(values, count, above))
                    .as("count %d, %d above", count, above).isEqualTo(sorted[count - 1 - above]);
        }
    }

    @Test
    void theReadP95IsTheSampleAtThe95thPercentile() {
        LatencyRanking.ReadSamples samples = new LatencyRanking.ReadSamples();
        for (long i = 64; i >= 1; i--) {
            samples.add(i * MS); // 64 ms first: the ring's order is not the samples' order
        }
        assertThat(samples.p95()).isEqualTo(61 * MS); // ceil(0.95 * 64) = 61st smallest of 1..64 ms
    }

    @Test
    void beforeAnyObservationTheConfiguredOrderHolds() {
        assertThat(ranking.rank(List.of("c", "a", "b"), Op.READ, 1024)).containsExactly("a", "b", "c");
        assertThat(ranking.estimateNanos("a", Op.READ, 1024)).isEmpty();
    }

    @Test
    void ranksByObservedLatency() {
        ranking.recordSuccess("a", Op.READ, 1024, 50 * MS);
        ranking.recordSuccess("b", Op.READ, 1024, 10 * MS);
        ranking.recordSuccess("c", Op.READ, 1024, 30 * MS);

        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).containsExactly("b", "c", "a");
    }

    @Test
    void unobservedCloudsRankAsIfTheyTookTheInitialTimerInConfiguredOrder() {
        ranking.recordSuccess("b", Op.WRITE, 1024, MS);
        ranking.recordSuccess("c", Op.WRITE, 1024, 500 * MS);

        // a is unobserved: assumed to take the initial timer (100 ms), between b (1 ms) and c (500 ms)
        assertThat(ranking.rank(List.of("c", "a", "b"), Op.WRITE, 1024)).containsExactly("b", "a", "c");
    }

    @Test
    void unobservedCloudsKeepConfiguredOrderAmongThemselves() {
        ranking.recordSuccess("a", Op.WRITE, 1024, 500 * MS);

        assertThat(ranking.rank(List.of("a", "c", "b"), Op.WRITE, 1024)).containsExactly("b", "c", "a");
    }

    @Test
    void failuresSinkACloud() {
        ranking.recordSuccess("a", Op.READ, 1024, 10 * MS);
        ranking.recordSuccess("b", Op.READ, 1024, 20 * MS);
        ranking.recordSuccess("c", Op.READ, 1024, 30 * MS);

        ranking.recordFailure("a", Op.READ, 1024);

        assertThat(ranking.estimateNanos("a", Op.READ, 1024)).hasValue(60.0 * MS);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).containsExactly("b", "c", "a");
    }

    @Test
    void theFirstSuccessAfterAFailureReplacesThePenaltyOutright() {
        ranking.recordSuccess("a", Op.READ, 1024, 10 * MS);
        ranking.recordSuccess("b", Op.READ, 1024, 20 * MS);
        ranking.recordFailure("a", Op.READ, 1024);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).startsWith("b");

        ranking.recordSuccess("a", Op.READ, 1024, 12 * MS);

        assertThat(ranking.estimateNanos("a", Op.READ, 1024)).hasValue(12.0 * MS);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).startsWith("a", "b");
        ranking.recordSuccess("a", Op.READ, 1024, 22 * MS);
        assertThat(ranking.estimateNanos("a", Op.READ, 1024)).hasValue(15.0 * MS);
    }

    @Test
    void staleSlotsNameCloudsWithoutFreshEstimatesInSizeClassesInUse() {
        long[] now = {0};
        LatencyRanking r = clocked(now);
        assertThat(r.staleSlots(CLOUDS, 1000 * MS)).isEmpty();
        assertThat(r.allSlots(CLOUDS)).extracting(LatencyRanking.StaleSlot::sizeClass).containsOnly(0);

        for (String id : List.of("a", "b")) {
            r.recordSuccess(id, Op.READ, 1024, MS);
            r.recordSuccess(id, Op.WRITE, 1024, MS);
        }
        r.recordSuccess("a", Op.READ, 2 << 20, MS);
        r.recordSuccess("a", Op.WRITE, 2 << 20, MS);

        assertThat(r.staleSlots(CLOUDS, 1000 * MS)).containsExactly(
                new LatencyRanking.StaleSlot("c", 0),
                new LatencyRanking.StaleSlot("b", 2), new LatencyRanking.StaleSlot("c", 2));

        now[0] = 500 * MS;
        r.recordSuccess("b", Op.READ, 1024, MS);
        r.recordFailure("a", Op.WRITE, 1024);
        now[0] = 1200 * MS;

        assertThat(r.staleSlots(CLOUDS, 1000 * MS)).containsExactly(
                new LatencyRanking.StaleSlot("a", 0), new LatencyRanking.StaleSlot("b", 0),
                new LatencyRanking.StaleSlot("c", 0), new LatencyRanking.StaleSlot("a", 2),
                new LatencyRanking.StaleSlot("b", 2), new LatencyRanking.StaleSlot("c", 2));
        assertThat(r.staleSlots(CLOUDS, 10_000 * MS)).containsExactly(
                new LatencyRanking.StaleSlot("a", 0), new LatencyRanking.StaleSlot("c", 0),
                new LatencyRanking.StaleSlot("b", 2), new LatencyRanking.StaleSlot("c", 2));
    }

    @Test
    void aProbeReplacesTheEstimateAndItsRechecksBackOffUpToTheProbeInterval() {
        long[] now = {0};
        LatencyRanking r = clocked(now);
        for (int i = 0; i < 5; i++) {
            r.recordSuccess("a", Op.WRITE, 1024, 80 * MS);
        }
        r.recordProbe("a", Op.WRITE, 1024, 30 * MS);
        assertThat(r.estimateNanos("a", Op.WRITE, 1024)).hasValue(30.0 * MS);
        r.recordProbe("b", Op.READ, 1024, 40 * MS); // probed at open: no estimate before
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).isEmpty();

        now[0] = 15 * SECOND + 1;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).containsExactly(new LatencyRanking.StaleSlot("a", 0),
                new LatencyRanking.StaleSlot("b", 0));
        r.recordProbe("a", Op.WRITE, 1024, 31 * MS);
        r.recordProbe("b", Op.READ, 1024, 41 * MS);
        now[0] += 30 * SECOND;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).isEmpty();
        now[0] += 1;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).hasSize(2);
        // a wait as long as the probe interval is left to it (staleSlots)
        assertThat(r.recheckSlots(CLOUDS, 30 * SECOND)).isEmpty();
        // live traffic keeps a slot measured: it is not due
        r.recordSuccess("a", Op.WRITE, 1024, 31 * MS);
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).containsExactly(new LatencyRanking.StaleSlot("b", 0));
    }

    @Test
    void liveTrafficThatMovesACloudBehindAnotherSchedulesItsRecheck() {
        long[] now = {0};
        LatencyRanking r = clocked(now);
        for (int i = 0; i < 5; i++) {
            r.recordSuccess("a", Op.WRITE, 1024, 20 * MS);
            r.recordSuccess("b", Op.WRITE, 1024, 30 * MS);
            r.recordSuccess("c", Op.WRITE, 1024, 31 * MS);
        }
        r.recordSuccess("c", Op.WRITE, 1024, 40 * MS); // one slow answer: the median keeps c where it was
        for (int i = 0; i < 3; i++) {
            r.recordSuccess("a", Op.WRITE, 1024, 200 * MS); // a burst of slow answers: behind b and c
        }
        assertThat(r.rank(CLOUDS, Op.WRITE, 1024)).containsExactly("b", "c", "a");
        now[0] = 16 * SECOND;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).containsExactly(new LatencyRanking.StaleSlot("a", 0));

        r.recordProbe("a", Op.WRITE, 1024, 20 * MS); // it was a burst: a is back in front at once
        assertThat(r.rank(CLOUDS, Op.WRITE, 1024)).containsExactly("a", "b", "c");
    }

    @Test
    void aCloudThatDriftsBehindAnotherInSmallStepsIsRecheckedOnceItIsBehindByMoreThanAMillisecond() {
        long[] now = {0};
        LatencyRanking r = clocked(now);
        r.recordSuccess("b", Op.READ, 1024, 30 * MS);
        r.recordSuccess("a", Op.READ, 1024, 29 * MS);
        r.recordSuccess("a", Op.READ, 1024, 31 * MS);
        r.recordSuccess("a", Op.READ, 1024, 34 * MS); // 30.02 ms: behind b, by less than a millisecond
        assertThat(r.rank(CLOUDS, Op.READ, 1024)).startsWith("b", "a");
        now[0] = 16 * SECOND;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).isEmpty();
        r.recordSuccess("a", Op.READ, 1024, 34 * MS); // 31.2 ms: now more than a millisecond behind
        now[0] = 32 * SECOND;
        assertThat(r.recheckSlots(CLOUDS, 300 * SECOND)).containsExactly(new LatencyRanking.StaleSlot("a", 0));
    }

    @Test
    void aFailedUnobservedCloudRanksBehindAnsweringClouds() {
        ranking.recordSuccess("a", Op.READ, 1024, 90 * MS);
        ranking.recordSuccess("c", Op.READ, 1024, 90 * MS);

        ranking.recordFailure("b", Op.READ, 1024);

        assertThat(ranking.estimateNanos("b", Op.READ, 1024)).hasValue(200.0 * MS);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).containsExactly("a", "c", "b");
    }

    @Test
    void estimatesAreAnExponentialMovingAverage() {
        ranking.recordSuccess("a", Op.READ, 1024, 100);
        ranking.recordSuccess("a", Op.READ, 1024, 200);

        assertThat(ranking.estimateNanos("a", Op.READ, 1024).getAsDouble()).isCloseTo(130.0,
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aLoneSlowAnswerDoesNotReorderTheCloudsButALastingSlowdownDoesFromItsThirdSample() {
        for (int i = 0; i < 5; i++) {
            ranking.recordSuccess("a", Op.WRITE, 1024, 20 * MS);
            ranking.recordSuccess("b", Op.WRITE, 1024, 30 * MS);
        }
        ranking.recordSuccess("a", Op.WRITE, 1024, 300 * MS); // a pause: the median of the latest five is still 20
        assertThat(ranking.estimateNanos("a", Op.WRITE, 1024)).hasValue(20.0 * MS);
        assertThat(ranking.rank(CLOUDS, Op.WRITE, 1024)).startsWith("a", "b");
        for (int i = 0; i < 4; i++) {
            ranking.recordSuccess("a", Op.WRITE, 1024, 20 * MS);
        }

        ranking.recordSuccess("a", Op.WRITE, 1024, 300 * MS);
        ranking.recordSuccess("a", Op.WRITE, 1024, 300 * MS);
        assertThat(ranking.rank(CLOUDS, Op.WRITE, 1024)).startsWith("a", "b");
        ranking.recordSuccess("a", Op.WRITE, 1024, 300 * MS); // three of the latest five: the median moves
        assertThat(ranking.estimateNanos("a", Op.WRITE, 1024).getAsDouble()).isCloseTo(104.0 * MS,
                org.assertj.core.data.Offset.offset(1e-3 * MS));
        assertThat(ranking.rank(CLOUDS, Op.WRITE, 1024)).containsExactly("b", "c", "a"); // c: the 100 ms prior
    }

    @Test
    void operationsAndSizeClassesAreRankedSeparately() {
        ranking.recordSuccess("a", Op.READ, 1024, 90 * MS);
        ranking.recordSuccess("b", Op.READ, 1024, 10 * MS);
        ranking.recordSuccess("c", Op.READ, 1024, 50 * MS);

        assertThat(ranking.rank(CLOUDS, Op.WRITE, 1024)).containsExactly("a", "b", "c");
        assertThat(ranking.rank(CLOUDS, Op.READ, 32L << 20)).containsExactly("a", "b", "c");
        assertThat(ranking.rank(CLOUDS, Op.READ, (64 << 10) - 1)).containsExactly("b", "c", "a");
    }

    @Test
    void sizeClassBoundaries() {
        assertThat(LatencyRanking.sizeClass(0)).isZero();
        assertThat(LatencyRanking.sizeClass((64 << 10) - 1)).isZero();
        assertThat(LatencyRanking.sizeClass(64 << 10)).isEqualTo(1);
        assertThat(LatencyRanking.sizeClass((1 << 20) - 1)).isEqualTo(1);
        assertThat(LatencyRanking.sizeClass(1 << 20)).isEqualTo(2);
        assertThat(LatencyRanking.sizeClass(16 << 20)).isEqualTo(3);
        assertThat(LatencyRanking.sizeClass(Long.MAX_VALUE)).isEqualTo(3);
    }

    @Test
    void timersAreNeverBelowTheMinimum() {
        assertThat(ranking.timerNanos("a", Op.READ, 1024)).isEqualTo(100 * MS);

        ranking.recordSuccess("a", Op.READ, 1024, 1);
        assertThat(ranking.timerNanos("a", Op.READ, 1024)).isEqualTo(10 * MS);

        ranking.recordSuccess("b", Op.READ, 1024, 50 * MS);
        assertThat(ranking.timerNanos("b", Op.READ, 1024)).isEqualTo(150 * MS);

        LatencyRanking shortInitial = new LatencyRanking(CLOUDS, Duration.ofMillis(100), Duration.ofMillis(10), 3.0);
        assertThat(shortInitial.timerNanos("a", Op.WRITE, 0)).isEqualTo(100 * MS);
    }

    @Test
    void repeatedFailuresKeepTimersFinite() {
        for (int i = 0; i < 200; i++) {
            ranking.recordFailure("a", Op.READ, 1024);
        }

        assertThat(ranking.timerNanos("a", Op.READ, 1024)).isPositive().isLessThan(Long.MAX_VALUE);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).containsExactly("b", "c", "a");
    }

    @Test
    void rankingsAreNewImmutableLists() {
        List<String> candidates = new ArrayList<>(CLOUDS);
        List<String> ranked = ranking.rank(candidates, Op.READ, 1024);
        candidates.clear();

        assertThat(ranked).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> ranked.add("d")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ranked.set(0, "d")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).isNotSameAs(ranked);
    }

    @Test
    void cloudsOutsideTheConfigurationRankLastAmongTies() {
        assertThat(ranking.rank(List.of("z", "b", "a"), Op.READ, 1024)).containsExactly("a", "b", "z");
    }

    @Test
    void statusListsCloudsFastestFirstWithSmallValueEstimatesAndTheLatestError() {
        ranking.recordSuccess("a", Op.READ, 1024, 50 * MS);
        ranking.recordSuccess("b", Op.READ, 1024, 10 * MS);
        ranking.recordSuccess("b", Op.WRITE, 1024, 20 * MS);
        ranking.recordSuccess("c", Op.READ, 32L << 20, MS); // a large-value estimate: not shown
        ranking.recordError("a", Op.WRITE, 1024, new IllegalStateException("first"));
        ranking.recordError("a", Op.READ, 1024, new IllegalStateException("second\n  line"));

        List<io.hybris.CloudStatus> status = ranking.status(CLOUDS);

        assertThat(status).extracting(io.hybris.CloudStatus::cloudId).containsExactly("b", "c", "a");
        assertThat(status).extracting(io.hybris.CloudStatus::rank).containsExactly(1, 2, 3);
        io.hybris.CloudStatus b = status.get(0);
        assertThat(b.readLatency()).hasValue(Duration.ofMillis(10));
        assertThat(b.writeLatency()).hasValue(Duration.ofMillis(20));
        assertThat(b.failing()).isFalse();
        assertThat(b.errors()).isZero();
        assertThat(b.lastError()).isEmpty();
        assertThat(b.lastErrorAt()).isEmpty();
        assertThat(status.get(1).readLatency()).as("c has no small-value estimate").isEmpty();
        io.hybris.CloudStatus a = status.get(2);
        assertThat(a.failing()).isTrue();
        assertThat(a.errors()).isEqualTo(2);
        assertThat(a.lastError()).hasValue("read: IllegalStateException: second line");
        assertThat(a.lastErrorAt()).isPresent();
    }

    @Test
    void theHedgeWaitsForThePaperTimerUntilSixteenReadsWereMeasuredThenForTheirP95() {
        for (int i = 1; i < 16; i++) {
            ranking.recordSuccess("a", Op.READ, 1024, i * MS);
        }
        assertThat(ranking.hedgeNanos("a", 1024, MS)).isEqualTo(ranking.timerNanos("a", Op.READ, 1024));
        for (int i = 16; i <= 100; i++) {
            ranking.recordSuccess("a", Op.READ, 1024, i * MS);
        }
        // the latest 64 reads took 37..100 ms: their 95th percentile is the 61st, 97 ms
        assertThat(ranking.hedgeNanos("a", 1024, MS)).isEqualTo(97 * MS);
        assertThat(ranking.hedgeNanos("a", 1024, 200 * MS)).as("at least the minimum delay").isEqualTo(200 * MS);
        assertThat(ranking.hedgeNanos("a", 2 << 20, MS)).as("per size class")
                .isEqualTo(ranking.timerNanos("a", Op.READ, 2 << 20));
        ranking.recordSuccess("a", Op.WRITE, 1024, 500 * MS);
        assertThat(ranking.hedgeNanos("a", 1024, MS)).as("writes are not read samples").isEqualTo(97 * MS);
    }

    @Test
    void aReadLeftBehindByAHedgeIsACensoredSampleAndThreeInARowAreAFailure() {
        for (int i = 0; i < 14; i++) {
            ranking.recordSuccess("a", Op.READ, 1024, 10 * MS);
        }
        ranking.recordLeftBehind("a", 1024, 200 * MS);
        ranking.recordLeftBehind("a", 1024, 200 * MS);
        assertThat(ranking.estimateNanos("a", Op.READ, 1024)).as("the average does not move").hasValue(10.0 * MS);
        assertThat(ranking.hedgeNanos("a", 1024, MS)).as("16 samples: the p95 window has them").isEqualTo(200 * MS);
        ranking.recordSuccess("a", Op.READ, 1024, 10 * MS); // an answer in between: the count starts again
        ranking.recordLeftBehind("a", 1024, 200 * MS);
        ranking.recordLeftBehind("a", 1024, 200 * MS);
        assertThat(ranking.status(CLOUDS).stream().filter(s -> s.cloudId().equals("a")).findFirst().orElseThrow()
                .failing()).isFalse();
        ranking.recordLeftBehind("a", 1024, 200 * MS);
        assertThat(ranking.status(CLOUDS).stream().filter(s -> s.cloudId().equals("a")).findFirst().orElseThrow()
                .failing()).as("three in a row").isTrue();
        ranking.recordSuccess("b", Op.READ, 1024, 30 * MS);
        ranking.recordSuccess("c", Op.READ, 1024, 40 * MS);
        assertThat(ranking.rank(CLOUDS, Op.READ, 1024)).as("its penalty (60 ms) ranks it behind slower clouds")
                .containsExactly("b", "c", "a");
    }

    /** A ranking over {@link #CLOUDS} whose clock reads {@code now[0]}. */
    private static LatencyRanking clocked(long[] now) {
        return new LatencyRanking(CLOUDS, Duration.ofMillis(10), Duration.ofMillis(100), 3.0, () -> now[0]);
    }
}
