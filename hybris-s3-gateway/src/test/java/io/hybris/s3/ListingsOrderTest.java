/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.spi.KeyEncoding;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two orders a gateway listing reconciles, without a server: S3's (UTF-8 bytes) against Hybris's (encoded
 * keys), and the rule that lets a listing stop scanning early ({@link Listings#nothingAfterSortsBefore}).
 */
class ListingsOrderTest {
    private static final String[] PIECES = {"a", "b", "z", "A", "0", "9", "-", ".", "_", "/", "{", "~", " ",
        "\u00e9", "\uff21", "\ud83d\ude00", "ab", "a/", "a-"};

    @Test
    void compareUtf8IsTheOrderOfTheUtf8Bytes() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            String a = randomKey(random, "");
            String b = randomKey(random, "");
            int bytes = Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
            assertThat(Integer.signum(Listings.compareUtf8(a, b))).as("%s vs %s", a, b).isEqualTo(Integer.signum(bytes));
        }
    }

    @Test
    void onceTheRuleSaysStopNoLaterListedKeySortsBeforeTheCutoffInS3Order() {
        Random random = new Random(11);
        int stops = 0;
        for (int round = 0; round < 300; round++) {
            String prefix = round % 3 == 0 ? "" : round % 3 == 1 ? "a" : "a/";
            TreeSet<String> unique = new TreeSet<>();
            while (unique.size() < 60) {
                unique.add(randomKey(random, prefix));
            }
            List<String> listed = new ArrayList<>(unique);
            listed.sort(Comparator.comparing(KeyEncoding::encode)); // the order Hybris lists in
            for (int c = 0; c < listed.size(); c += 7) {
                String cutoff = listed.get(c);
                for (int l = 0; l < listed.size(); l++) {
                    if (Listings.nothingAfterSortsBefore(listed.get(l), cutoff, prefix)) {
                        stops++;
                        for (String later : listed.subList(l, listed.size())) {
                            assertThat(Listings.compareUtf8(later, cutoff)).as("%s listed after the stop at %s,"
                                    + " cutoff %s, prefix '%s'", later, listed.get(l), cutoff, prefix)
                                    .isGreaterThan(0);
                        }
                    }
                }
            }
        }
        assertThat(stops).as("the rule lets scans stop").isGreaterThan(10_000);
    }

    @Test
    void aKeyOfKeptCharactersStopsTheScanRightAfterIt() {
        assertThat(Listings.nothingAfterSortsBefore("dir07/obj-01001", "dir07/obj-01000", "dir07/")).isTrue();
        assertThat(Listings.nothingAfterSortsBefore("dir07/obj-01000", "dir07/obj-01000", "dir07/")).isFalse();
        // without the prefix, '/' is escaped: the scan goes on past every key starting with "dir07"
        assertThat(Listings.nothingAfterSortsBefore("dir07/obj-09999", "dir07/obj-01000", "")).isFalse();
        assertThat(Listings.nothingAfterSortsBefore("dir08/obj-00000", "dir07/obj-01000", "")).isTrue();
        // a leading '.' is escaped too: nothing can be ruled out
        assertThat(Listings.nothingAfterSortsBefore("zzz", ".hidden", "")).isFalse();
    }

    private static String randomKey(Random random, String prefix) {
        StringBuilder b = new StringBuilder(prefix);
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return b.toString();
    }
}
