/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The values the campaign writes: every write has a unique id (its name in the history), and its bytes are
 * {@code MARKER + id + '|'} followed by padding derived from the id, so a read can say exactly which write it
 * returned and whether the bytes are intact, and a scan of the clouds can look for {@link #MARKER} to find
 * plaintext. Sizes vary from a few bytes to {@code maxPadding}.
 */
final class CampaignValues {
    /** Starts every value's plaintext; never appears in an encrypted object. */
    static final String MARKER = "HYBRIS-CAMPAIGN-PLAINTEXT:";
    private static final byte[] MARKER_BYTES = MARKER.getBytes(StandardCharsets.US_ASCII);

    private CampaignValues() {
    }

    /** The bytes of the write {@code id}, with padding of a size drawn from {@code id} (at most {@code maxPadding}). */
    static byte[] bytes(String id, int maxPadding) {
        byte[] head = (MARKER + id + "|").getBytes(StandardCharsets.US_ASCII);
        SplittableRandom random = new SplittableRandom(id.hashCode());
        int padding = random.nextInt(10) == 0 ? random.nextInt(maxPadding + 1) : random.nextInt(257);
        byte[] out = Arrays.copyOf(head, head.length + padding);
        for (int i = head.length; i < out.length; i++) {
            out[i] = (byte) random.nextInt(256);
        }
        return out;
    }

    /**
     * The id of the write whose bytes {@code value} are.
     *
     * @throws IllegalArgumentException if the bytes are not exactly what that write wrote (a wrong or damaged value)
     */
    static String idOf(byte[] value, int maxPadding) {
        int bar = -1;
        for (int i = MARKER_BYTES.length; i < value.length && i < MARKER_BYTES.length + 200; i++) {
            if (value[i] == '|') {
                bar = i;
                break;
            }
        }
        if (bar < 0 || !Arrays.equals(value, 0, MARKER_BYTES.length, MARKER_BYTES, 0, MARKER_BYTES.length)) {
            throw new IllegalArgumentException("a value not written by the campaign (" + value.length + " bytes)");
        }
        String id = new String(value, MARKER_BYTES.length, bar - MARKER_BYTES.length, StandardCharsets.US_ASCII);
        if (!Arrays.equals(value, bytes(id, maxPadding))) {
            throw new IllegalArgumentException("the value of write " + id + " came back damaged (" + value.length
                    + " bytes)");
        }
        return id;
    }

    /** Whether {@code stored} contains the plaintext marker. */
    static boolean containsPlaintext(byte[] stored) {
        outer:
        for (int i = 0; i + MARKER_BYTES.length <= stored.length; i++) {
            for (int j = 0; j < MARKER_BYTES.length; j++) {
                if (stored[i + j] != MARKER_BYTES[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
