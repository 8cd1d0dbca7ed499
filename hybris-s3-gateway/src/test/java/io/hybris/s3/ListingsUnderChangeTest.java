/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ListObjectsV2 paged with continuation tokens while objects are written and deleted between pages, over keys with
 * characters Hybris escapes (so its order differs from S3's), prefixes and delimiters of one or more characters:
 * every object that exists throughout is listed once (as itself or under its common prefix), in S3's order, and
 * no object deleted throughout is.
 */
class ListingsUnderChangeTest extends GatewayFixture {
    private static final String[] PIECES = {"a", "b", "-", ".", "/", "{", "\u00e9", "~", "_", "0", " ", "\ud83d\ude00",
        "\uff21", "%", "ab"};

    private static String entry(String key, String prefix, String delimiter) {
        int at = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
        return at < 0 ? key : key.substring(0, at + delimiter.length());
    }

    @Test
    void pagesUnderWritesAndDeletesListEveryObjectThatLivesThroughOnceInS3Order() {
        s3.createBucket(b -> b.bucket("churn"));
        Random random = new Random(9);
        List<String> universe = new ArrayList<>();
        Set<String> unique = new TreeSet<>();
        while (unique.size() < 70) {
            StringBuilder k = new StringBuilder(PIECES[random.nextInt(PIECES.length)]);
            for (int i = random.nextInt(5); i >= 0; i--) {
                k.append(PIECES[random.nextInt(PIECES.length)]);
            }
            if (unique.add(k.toString())) {
                universe.add(k.toString());
            }
        }
        Set<String> live = new TreeSet<>();
        for (String k : universe) {
            if (random.nextInt(3) > 0) {
                s3.putObject(b -> b.bucket("churn").key(k), RequestBody.fromString(k));
                live.add(k);
            }
        }
        String[] prefixes = {"", "a", "b", "\u00e9", "a/"};
        String[] delimiters = {null, "/", "b", "\u00e9", "ab", "\ud83d\ude00"};
        for (int round = 0; round < 24; round++) {
            String prefix = prefixes[round % prefixes.length];
            String delimiter = delimiters[round % delimiters.length];
            int maxKeys = 1 + random.nextInt(4);
            Set<String> liveThroughout = new TreeSet<>(live);
            Set<String> everLive = new TreeSet<>(live);
            List<String> paged = new ArrayList<>();
            String token = null;
            do {
                String t = token;
                ListObjectsV2Response page = s3.listObjectsV2(b -> b.bucket("churn").prefix(prefix)
                        .delimiter(delimiter).maxKeys(maxKeys).continuationToken(t));
                assertThat(page.keyCount()).isLessThanOrEqualTo(maxKeys);
                List<String> entries = new ArrayList<>();
                page.contents().forEach(o -> entries.add(o.key()));
                page.commonPrefixes().forEach(p -> entries.add(p.prefix()));
                entries.sort(Listings::compareUtf8);
                paged.addAll(entries);
                token = page.nextContinuationToken();
                for (int i = 0; i < 4; i++) {
                    String k = universe.get(random.nextInt(universe.size()));
                    if (live.remove(k)) {
                        s3.deleteObject(b -> b.bucket("churn").key(k));
                    } else {
                        s3.putObject(b -> b.bucket("churn").key(k), RequestBody.fromString(k));
                        live.add(k);
                        everLive.add(k);
                    }
                }
                liveThroughout.retainAll(live);
            } while (token != null);
            String what = String.format("round %d, prefix '%s', delimiter '%s', max-keys %d", round, prefix,
                    delimiter, maxKeys);
            assertThat(paged).as(what).doesNotHaveDuplicates().isSortedAccordingTo(Listings::compareUtf8);
            for (String k : liveThroughout) {
                if (k.startsWith(prefix)) {
                    assertThat(paged).as(what).contains(entry(k, prefix, delimiter));
                }
            }
            Set<String> possible = new TreeSet<>();
            everLive.stream().filter(k -> k.startsWith(prefix)).forEach(k -> possible.add(entry(k, prefix,
                    delimiter)));
            assertThat(possible).as(what + ": nothing deleted throughout").containsAll(paged);
        }
    }
}
