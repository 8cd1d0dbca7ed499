/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A price per unit (per GB, per GB-month) that falls with volume, as cloud price sheets quote storage and egress:
 * each tier's price applies to the units between the previous tier's limit and its own. The last tier has no limit.
 * Text form, as in configuration: {@code 0.023} (one price), or {@code 0 up to 100, 0.09 up to 10240, 0.085 up to
 * 51200, 0.07} (the first 100 units free, ...). Immutable.
 */
public final class TieredPrice {
    /**
     * One tier: {@code price} per unit up to {@code upTo} units in total ({@link Double#POSITIVE_INFINITY} for the
     * last tier).
     *
     * @param price per unit, {@code >= 0}
     * @param upTo  the volume at which this tier ends
     */
    public record Tier(double price, double upTo) {
        public Tier {
            if (!(price >= 0) || Double.isInfinite(price) || !(upTo > 0)) {
                throw new IllegalArgumentException("a tier needs a finite price >= 0 and a limit > 0: " + price
                        + " up to " + upTo);
            }
        }
    }

    private final List<Tier> tiers;

    private TieredPrice(List<Tier> tiers) {
        this.tiers = List.copyOf(tiers);
        if (this.tiers.isEmpty() || this.tiers.get(this.tiers.size() - 1).upTo() != Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("the last tier must have no limit");
        }
        for (int i = 1; i < this.tiers.size(); i++) {
            if (this.tiers.get(i).upTo() <= this.tiers.get(i - 1).upTo()) {
                throw new IllegalArgumentException("tier limits must increase: " + this.tiers.get(i - 1).upTo()
                        + " then " + this.tiers.get(i).upTo());
            }
        }
    }

    /** One price for any volume. */
    public static TieredPrice flat(double price) {
        return new TieredPrice(List.of(new Tier(price, Double.POSITIVE_INFINITY)));
    }

    /** Free of charge. */
    public static TieredPrice free() {
        return flat(0);
    }

    /** Tiers in order; the last one's {@code upTo} must be {@link Double#POSITIVE_INFINITY}. */
    public static TieredPrice of(List<Tier> tiers) {
        return new TieredPrice(tiers);
    }

    /**
     * Parses the text form ({@code price [up to limit], ...}).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static TieredPrice parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty price; write a number such as 0.023, or tiers such as"
                    + " '0 up to 100, 0.09 up to 10240, 0.085'");
        }
        List<Tier> tiers = new ArrayList<>();
        String[] parts = text.split(",");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim().toLowerCase(Locale.ROOT);
            String[] words = part.split("\\s+up\\s+to\\s+");
            boolean last = i == parts.length - 1;
            if (words.length > 2 || words.length == 2 == last) {
                throw new IllegalArgumentException("'" + parts[i].trim() + "': every tier but the last is"
                        + " 'price up to limit' and the last is a price alone (e.g. '0 up to 100, 0.09')");
            }
            tiers.add(new Tier(number(words[0], text), last ? Double.POSITIVE_INFINITY : number(words[1], text)));
        }
        return new TieredPrice(tiers);
    }

    private static double number(String word, String text) {
        try {
            return Double.parseDouble(word.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + word.trim() + "' in '" + text + "' is not a number");
        }
    }

    /** The tiers, cheapest volume last. */
    public List<Tier> tiers() {
        return tiers;
    }

    /** What {@code units} cost in total, each tier's price applied to the units within it. */
    public double cost(double units) {
        double total = 0;
        double below = 0;
        for (Tier t : tiers) {
            if (units <= below) {
                break;
            }
            total += (Math.min(units, t.upTo()) - below) * t.price();
            below = t.upTo();
        }
        return total;
    }

    /** The list price: that of the first tier that is not free (0 if every tier is free). */
    public double listPrice() {
        return tiers.stream().mapToDouble(Tier::price).filter(p -> p > 0).findFirst().orElse(0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TieredPrice t && t.tiers.equals(tiers);
    }

    @Override
    public int hashCode() {
        return tiers.hashCode();
    }

    /** The text form, which {@link #parse} reads back. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Tier t : tiers) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(plain(t.price()));
            if (t.upTo() != Double.POSITIVE_INFINITY) {
                b.append(" up to ").append(plain(t.upTo()));
            }
        }
        return b.toString();
    }

    static String plain(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
