/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ByteRange;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses {@code FIRST-LAST}, {@code FIRST-} and {@code -N} into a {@link ByteRange}. */
final class RangeConverter implements ITypeConverter<ByteRange> {
    @Override
    public ByteRange convert(String value) {
        String v = value.strip();
        int dash = v.indexOf('-');
        if (dash < 0 || v.indexOf('-', dash + 1) >= 0 || v.length() == 1) {
            throw bad(value);
        }
        try {
            if (dash == 0) {
                return ByteRange.suffix(Long.parseLong(v.substring(1)));
            }
            long first = Long.parseLong(v.substring(0, dash));
            if (dash == v.length() - 1) {
                return ByteRange.from(first);
            }
            return ByteRange.of(first, Long.parseLong(v.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw bad(value);
        } catch (RuntimeException e) {
            throw new TypeConversionException("'" + value + "' is not a valid range: " + e.getMessage());
        }
    }

    private static TypeConversionException bad(String value) {
        return new TypeConversionException("'" + value + "' is not a range: use FIRST-LAST, FIRST- or -N "
                + "(byte offsets, both ends inclusive)");
    }
}
