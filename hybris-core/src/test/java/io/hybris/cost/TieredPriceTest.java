/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TieredPriceTest {
    @Test
    void appliesEachTierToTheUnitsWithinIt() {
        TieredPrice egress = TieredPrice.parse("0 up to 100, 0.09 up to 10240, 0.085");
        assertThat(egress.cost(50)).isZero();
        assertThat(egress.cost(1100)).isCloseTo(1000 * 0.09, within(1e-9));
        assertThat(egress.cost(20240)).isCloseTo(10140 * 0.09 + 10000 * 0.085, within(1e-9));
        assertThat(egress.listPrice()).isEqualTo(0.09);
        assertThat(TieredPrice.parse(egress.toString())).isEqualTo(egress);
        assertThat(TieredPrice.parse(" 0.023 ").cost(10)).isCloseTo(0.23, within(1e-12));
    }

    @Test
    void rejectsMalformedTiersNamingTheProblem() {
        assertThatThrownBy(() -> TieredPrice.parse("0.09 up to 100"))
                .hasMessageContaining("the last is a price alone");
        assertThatThrownBy(() -> TieredPrice.parse("0.09, 0.08"))
                .hasMessageContaining("every tier but the last is 'price up to limit'");
        assertThatThrownBy(() -> TieredPrice.parse("0.09 up to 100, 0.08 up to 50, 0.07"))
                .hasMessageContaining("tier limits must increase");
        assertThatThrownBy(() -> TieredPrice.parse("cheap")).hasMessageContaining("'cheap' in 'cheap' is not a number");
        assertThatThrownBy(() -> TieredPrice.parse("-1")).hasMessageContaining("price >= 0");
        assertThatThrownBy(() -> TieredPrice.parse(" ")).hasMessageContaining("empty price");
    }
}
