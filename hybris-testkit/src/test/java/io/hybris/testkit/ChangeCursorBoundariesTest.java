/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeCursorExpiredException;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The change feed's cursors at the edges of the log: a cursor at the newest compacted commit names a commit that is
 * gone (expired, not read on past it), the one after it still reads on; a cursor one past {@code latestCursor} is not
 * one of the log's (expired, or it would skip the next commit); a subscription's cursor moves past filtered commits.
 */
class ChangeCursorBoundariesTest {
    private final InMemoryMetadataStore store = new InMemoryMetadataStore(2); // keeps the newest 2 commits
    private final List<InMemoryCloudStore> raw = OpenedClients.inMemoryClouds(3);
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
        store.close();
    }

    private Hybris open() {
        return opened.open(OpenedClients.config(store, raw).deadline(Duration.ofSeconds(3)));
    }

    @Test
    void aCursorAtTheNewestCompactedCommitExpiresAndTheNextOneReadsOn() {
        Hybris h = open();
        h.put("c", "a", "1".getBytes());
        ChangeCursor beforeB = h.latestCursor("c");
        h.put("c", "b", "2".getBytes());
        ChangeCursor beforeC = h.latestCursor("c");
        h.put("c", "c", "3".getBytes());
        h.put("c", "d", "4".getBytes()); // commits 1 and 2 (a, b) compacted

        assertThatThrownBy(() -> h.changes("c", "", beforeB, 100))
                .isInstanceOfSatisfying(ChangeCursorExpiredException.class,
                        e -> assertThat(e.cursor()).isEqualTo(beforeB));
        assertThat(h.changes("c", "", beforeC, 100).changes()).extracting(Change::key).containsExactly("c", "d");
    }

    @Test
    void aCursorOnePastTheLatestIsRefusedAsExpired() {
        Hybris h = open();
        h.put("c", "a", "1".getBytes());
        ChangeCursor latest = h.latestCursor("c");
        ChangeCursor ahead = new ChangeCursor(latest.commit() + 1, 0);

        assertThatThrownBy(() -> h.changes("c", "", ahead, 100))
                .isInstanceOfSatisfying(ChangeCursorExpiredException.class,
                        e -> assertThat(e.cursor()).isEqualTo(ahead));
        h.put("c", "b", "2".getBytes());
        assertThat(h.changes("c", "", latest, 100).changes()).extracting(Change::key).containsExactly("b");
    }

    /**
     * A subscription's cursor moves past the commits its prefix filters out, as a page's does: a sync app saving it
     * resumes after them, not before (and the subscription does not wake at once on the commits it has read).
     */
    @Test
    void aSubscriptionsCursorMovesPastCommitsItsPrefixFiltersOut() {
        Hybris h = opened.open(OpenedClients.config(new InMemoryMetadataStore(), raw).deadline(Duration.ofSeconds(3)));
        List<Change> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        ChangeSubscription s = h.subscribe("c", "docs/", ChangeCursor.BEGINNING, new ChangeListener() {
            @Override
            public void onChange(Change change) {
                heard.add(change);
            }
        });
        try {
            h.put("c", "docs/a", "1".getBytes());
            h.put("c", "pics/b", "2".getBytes());
            h.put("c", "pics/c", "3".getBytes());
            ChangeCursor latest = h.latestCursor("c");

            await().atMost(Duration.ofSeconds(5)).until(() -> s.cursor().equals(latest));
            assertThat(heard).extracting(Change::key).containsExactly("docs/a");
        } finally {
            s.close();
        }
    }
}
