/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi.support;

import io.hybris.HybrisConfigurationException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for configuration values whose errors name the property key and an example of a valid value: the one
 * syntax for durations, sizes, integers and booleans that every {@code hybris.*} key and every provider option
 * uses. Adapter authors normally reach these through {@link Option}; stateless and thread-safe.
 *
 * <pre>{@code
 * Duration d = ConfigValues.parseDuration("hybris.cloud.aws.request-timeout", "30s");   // PT30S
 * long max = ConfigValues.parseSize("hybris.cache.max-item-size", "1MiB");               // 1048576
 * }</pre>
 */
public final class ConfigValues {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(b|kib|mib|gib|tib|kb|mb|gb|tb)?");

    private ConfigValues() {
    }

    /** Parses {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601 such as {@code PT30S}. */
    public static Duration parseDuration(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = DURATION.matcher(v);
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new HybrisConfigurationException(key + "=" + value + " is too large");
            }
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new HybrisConfigurationException(key + "=" + value
                    + " is not a duration; write e.g. 250ms, 30s, 5m, 1h or PT30S");
        }
    }

    /** Parses a byte size: {@code 1048576}, {@code 64KiB}, {@code 32MiB}, {@code 1GiB}, {@code 5TiB} (KB/MB/GB/TB are powers of 1000). */
    public static long parseSize(String key, String value) {
        Matcher m = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new HybrisConfigurationException(key + "=" + value
                    + " is not a size; write e.g. 1048576, 64KiB, 32MiB, 1GiB or 5TiB");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new HybrisConfigurationException(key + "=" + value + " is too large");
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        long factor = switch (unit) {
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            case "tib" -> 1L << 40;
            case "kb" -> 1000L;
            case "mb" -> 1000_000L;
            case "gb" -> 1000_000_000L;
            case "tb" -> 1000_000_000_000L;
            default -> 1L;
        };
        try {
            return Math.multiplyExact(n, factor);
        } catch (ArithmeticException e) {
            throw new HybrisConfigurationException(key + "=" + value + " is too large");
        }
    }

    /** Parses a decimal integer. */
    public static int parseInt(String key, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new HybrisConfigurationException(key + "=" + value + " is not an integer");
        }
    }

    /** Parses {@code true} or {@code false} (any case); anything else is an error. */
    public static boolean parseBoolean(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new HybrisConfigurationException(key + "=" + value + " must be true or false");
    }

    /** Writes a duration the way the parsers read it back: {@code 5s} for whole seconds, else {@code 250ms}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** Writes a byte size the way {@link #parseSize} reads it back: {@code 64MiB} for whole mebibytes, etc. */
    public static String formatSize(long bytes) {
        String[] units = {"TiB", "GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (10 * (units.length - i));
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /**
     * Parses one of a fixed set of words (any case), e.g. a read mode.
     *
     * @param key     the property key, for the message
     * @param choices the values
     * @param word    the word that selects a value
     * @param what    what a value is, e.g. {@code a read mode}
     * @param help    the words to use and what they mean, for the message
     * @throws HybrisConfigurationException naming the key, the value and {@code help}
     */
    public static <E> E parseChoice(String key, String value, E[] choices, Function<E, String> word, String what,
                                    String help) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (E choice : choices) {
            if (word.apply(choice).equals(v)) {
                return choice;
            }
        }
        throw new HybrisConfigurationException(key + "=" + value + " is not " + what + "; use " + help);
    }
}
