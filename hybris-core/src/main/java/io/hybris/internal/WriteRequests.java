/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;
import io.hybris.PutOptions;
import io.hybris.ValueTooLargeException;

import java.util.Map;
import java.util.function.Supplier;

/** The checks of a write's input, made before anything is read or uploaded. */
final class WriteRequests {
    private WriteRequests() {
    }

    /**
     * Checks a TPUT of {@code values} with preconditions {@code options} (null: none) against a store that updates
     * at most {@code storeMax} keys atomically ({@code store} names it, asked only for a message): at least one key,
     * at most {@code min(maxKeys, storeMax)}, each key valid and each value one {@link #checkValue} accepts (up to
     * {@code maxValueSize} bytes), a precondition only for a key the transaction writes. Returns the preconditions
     * by key (empty for none).
     *
     * @throws InvalidRequestException naming what was wrong and how to fix it
     */
    static Map<String, PutOptions> checkTput(Map<String, byte[]> values, Map<String, PutOptions> options,
                                             int maxKeys, int storeMax, Supplier<String> store, long maxValueSize) {
        if (values == null || values.isEmpty()) {
            throw new InvalidRequestException("tput needs at least one key and value");
        }
        int max = Math.min(maxKeys, storeMax);
        if (values.size() > max) {
            throw new InvalidRequestException("tput of " + values.size() + " keys exceeds the maximum of " + max
                    + " per transaction" + (max < maxKeys ? " on " + store.get() : "") + "; split it into several"
                    + " transactions");
        }
        values.forEach((k, v) -> {
            Names.checkKey(k);
            checkValue(k, v, maxValueSize);
        });
        Map<String, PutOptions> conditions = options == null ? Map.of() : options;
        for (String k : conditions.keySet()) {
            if (k == null || !values.containsKey(k)) { // containsKey(null) throws on an immutable map
                throw new InvalidRequestException("tput has a precondition for key '" + k + "', which it does not"
                        + " write; pass preconditions only for the keys in the transaction");
            }
        }
        return conditions;
    }

    /**
     * Checks one value of {@code key}: not null (use delete to remove a key), at most {@code maxValueSize} bytes.
     *
     * @throws InvalidRequestException for a null value
     * @throws ValueTooLargeException  for a value above {@code hybris.value.max-size}
     */
    static void checkValue(String key, byte[] value, long maxValueSize) {
        if (value == null) {
            throw new InvalidRequestException("value for key '" + key + "' must not be null; use delete to remove a"
                    + " key");
        }
        if (value.length > maxValueSize) {
            throw new ValueTooLargeException("value for key '" + key + "' is " + value.length
                    + " bytes, above hybris.value.max-size=" + maxValueSize + "; raise the limit or split the value",
                    maxValueSize);
        }
    }
}
