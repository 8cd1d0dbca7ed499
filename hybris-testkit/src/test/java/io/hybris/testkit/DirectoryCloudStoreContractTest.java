/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the {@link CloudStoreContract} against {@link DirectoryCloudStore}, in a fresh directory per test. */
class DirectoryCloudStoreContractTest extends CloudStoreContract {
    @TempDir
    Path root;

    @Override
    protected CloudStore newStore() {
        return new DirectoryCloudStore("disk1", root.resolve("cloud"));
    }

    /**
     * A listing walks the directories while other threads' puts move temporary files into place and deletes
     * remove files: an entry vanishing between a directory's read and its attributes' must not fail the listing
     * nor hide the objects that stay.
     */
    @Test
    void aListingDuringPutsAndDeletesOfOtherObjectsListsEveryStableObject() throws Exception {
        CloudStore store = newStore();
        Set<String> stable = new TreeSet<>();
        for (int i = 0; i < 20; i++) {
            store.put("stable/s" + i, "s".getBytes(StandardCharsets.UTF_8));
            stable.add("stable/s" + i);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger churned = new AtomicInteger();
        AtomicReference<Throwable> churnFailure = new AtomicReference<>();
        Thread churn = new Thread(() -> {
            try {
                for (int i = 0; !stop.get(); i++) {
                    String key = "churn/c" + (i % 5) + "/v" + i;
                    store.put(key, new byte[1024]);
                    store.delete(key);
                    churned.incrementAndGet();
                }
            } catch (RuntimeException e) {
                churnFailure.set(e);
            }
        });
        churn.start();
        try {
            for (int lists = 0; (lists < 2000 || churned.get() < 2000) && churn.isAlive(); lists++) {
                assertThat(store.list("")).extracting(CloudObject::key).containsAll(stable);
            }
        } finally {
            stop.set(true);
            churn.join();
        }
        assertThat(churnFailure.get()).as("the churning thread's failure").isNull();
        assertThat(churned.get()).isGreaterThanOrEqualTo(2000);
    }

    /**
     * A listing starts at the prefix's directory and skips directories whose keys cannot match: for every prefix of
     * every stored key (segments split into continuation directories included), and for prefixes no key has, it
     * lists exactly the stored keys that start with the prefix.
     */
    @Test
    void aListingByAnyPrefixListsExactlyTheKeysStartingWithIt() {
        CloudStore store = newStore();
        String longSegment = "L".repeat(230);
        List<String> keys = List.of("a/b/c", "a/b/cd", "a/bc/d", "ab/c", "a/bcd", "x/" + longSegment + "/y",
                "x/" + longSegment + "z/w", "x/" + "L".repeat(199) + "/v", "x/" + "L".repeat(450));
        for (String key : keys) {
            store.put(key, key.getBytes(StandardCharsets.UTF_8));
        }
        Set<String> prefixes = new TreeSet<>(List.of("", "q", "a/b/c/", "a/b/", "a//b", "a/../a", "x/~", "a/b\\c"));
        for (String key : keys) {
            for (int end = 0; end <= key.length(); end++) {
                prefixes.add(key.substring(0, end));
            }
        }
        for (String prefix : prefixes) {
            Set<String> expected = keys.stream().filter(k -> k.startsWith(prefix))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(store.list(prefix)).as("listing of '%s'", prefix).extracting(CloudObject::key)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(store.list("a/b/c")).filteredOn(o -> o.key().equals("a/b/c")).extracting(CloudObject::size)
                .containsExactly(5L);
    }
}
