/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@link ByteRange}: construction checks and resolution against a value's length, as HTTP ranges resolve. */
class ByteRangeTest {
    private static void resolves(ByteRange r, long valueLength, long first, long length) {
        assertThat(r.firstIn(valueLength)).as("%s of %d: first", r, valueLength).isEqualTo(first);
        assertThat(r.lengthIn(valueLength)).as("%s of %d: length", r, valueLength).isEqualTo(length);
    }

    private static void outside(ByteRange r, long valueLength) {
        InvalidRangeException e = catchThrowableOfType(() -> r.lengthIn(valueLength), InvalidRangeException.class);
        assertThat(e).as("%s of %d", r, valueLength).isNotNull();
        assertThat(e.valueLength()).isEqualTo(valueLength);
        assertThat(e.getMessage()).contains(r.toString()).contains(valueLength + " bytes");
        assertThatThrownBy(() -> r.firstIn(valueLength)).isInstanceOf(InvalidRangeException.class);
    }

    @Test
    void closedRangesAreCutAtTheEnd() {
        resolves(ByteRange.of(0, 0), 10, 0, 1);
        resolves(ByteRange.of(9, 9), 10, 9, 1);
        resolves(ByteRange.of(3, 6), 10, 3, 4);
        resolves(ByteRange.of(3, 9), 10, 3, 7);
        resolves(ByteRange.of(3, 10), 10, 3, 7);
        resolves(ByteRange.of(0, Long.MAX_VALUE), 10, 0, 10);
        resolves(ByteRange.of(5L << 40, (5L << 40) + 9), 6L << 40, 5L << 40, 10);
    }

    @Test
    void openEndedAndSuffixRanges() {
        resolves(ByteRange.from(4), 10, 4, 6);
        resolves(ByteRange.from(9), 10, 9, 1);
        resolves(ByteRange.suffix(3), 10, 7, 3);
        resolves(ByteRange.suffix(10), 10, 0, 10);
        resolves(ByteRange.suffix(11), 10, 0, 10);
        resolves(ByteRange.suffix(Long.MAX_VALUE), 1, 0, 1);
    }

    @Test
    void theWholeValueResolvesForEveryLengthIncludingEmpty() {
        assertThat(ByteRange.from(0)).isSameAs(ByteRange.all());
        assertThat(ByteRange.all().isAll()).isTrue();
        assertThat(ByteRange.of(0, 5).isAll()).isFalse();
        resolves(ByteRange.all(), 0, 0, 0);
        resolves(ByteRange.all(), 1, 0, 1);
        resolves(ByteRange.all(), 5L << 40, 0, 5L << 40);
    }

    @Test
    void rangesOutsideTheValueFailWithItsLength() {
        outside(ByteRange.of(10, 10), 10);
        outside(ByteRange.of(10, 20), 10);
        outside(ByteRange.from(10), 10);
        outside(ByteRange.from(11), 10);
        outside(ByteRange.of(0, 0), 0);
        outside(ByteRange.from(1), 0);
        outside(ByteRange.suffix(1), 0);
    }

    @Test
    void malformedRangesAreRefusedWhenBuilt() {
        assertThatThrownBy(() -> ByteRange.of(-1, 3)).isInstanceOf(InvalidRequestException.class)
                .isNotInstanceOf(InvalidRangeException.class);
        assertThatThrownBy(() -> ByteRange.of(5, 4)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> ByteRange.from(-1)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> ByteRange.suffix(0)).isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> ByteRange.suffix(-5)).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void theHttpFormAndEquality() {
        assertThat(ByteRange.of(0, 1023)).hasToString("0-1023").isEqualTo(ByteRange.of(0, 1023))
                .hasSameHashCodeAs(ByteRange.of(0, 1023)).isNotEqualTo(ByteRange.of(0, 1022));
        assertThat(ByteRange.from(7)).hasToString("7-");
        assertThat(ByteRange.suffix(4096)).hasToString("-4096").isNotEqualTo(ByteRange.from(4096));
    }
}
