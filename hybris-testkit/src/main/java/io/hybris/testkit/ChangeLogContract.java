/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.Subscription;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change log of a {@link io.hybris.spi.MetadataStore} that keeps one ({@code hasChangeLog()}): each
 * successful update and atomic update is one record in commit order, a failed one none; pages, the newest
 * sequence number and the watch. Every store with a change log runs it (the Hybris-level feed is
 * {@link ChangeFeedContract}).
 */
public abstract class ChangeLogContract extends MetadataStoreFixture {

    @Test
    void everyCommitIsOneRecordInCommitOrderAndAFailedOneIsNone() throws Exception {
        assertThat(store.hasChangeLog()).isTrue();
        assertThat(store.latestChange("logs")).isZero();
        MetadataChangePage none = store.changes("logs", 1, 10);
        assertThat(none.changes()).isEmpty();
        assertThat(none.compactedThrough()).isZero();
        assertThat(none.hasMore()).isFalse();
        assertThat(none.end()).as("no log yet (or a store that cannot tell)").isIn(0L, Long.MAX_VALUE);
        MetadataKey a = key("logs", "a");
        MetadataVersion v = create(a, "1");
        assertThatThrownBy(() -> create(a, "lost")).isInstanceOf(VersionConflictException.class);
        update(a, "2");
        assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(a, bytes("stale"), v)))
                .isInstanceOf(VersionConflictException.class);
        store.conditionalUpdateAll(List.of(new MetadataUpdate(key("logs", "x y"), bytes("3"), MetadataVersion.ABSENT),
                new MetadataUpdate(key("logs", "b/c"), bytes("4"), MetadataVersion.ABSENT)));
        assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(key("logs", "new"), bytes("no"), MetadataVersion.ABSENT),
                new MetadataUpdate(a, bytes("no"), MetadataVersion.ABSENT))))
                .isInstanceOf(VersionConflictException.class);
        create(key("other", "a"), "elsewhere");

        MetadataChangePage page = store.changes("logs", 1, 10);
        List<MetadataChange> log = page.changes();
        assertThat(log).hasSize(3);
        assertThat(page.end()).as("no record beyond the page's end").isGreaterThanOrEqualTo(log.get(2).sequence());
        assertThat(log).extracting(MetadataChange::sequence).isSorted().doesNotHaveDuplicates();
        assertThat(log.get(0).updates()).singleElement().satisfies(u -> {
            assertThat(u.key()).isEqualTo("a");
            assertThat(new String(u.value(), StandardCharsets.UTF_8)).isEqualTo("1");
        });
        assertThat(log.get(1).updates()).extracting(MetadataChange.Update::key).containsExactly("a");
        assertThat(log.get(2).updates()).extracting(MetadataChange.Update::key).containsExactly("x y", "b/c");
        assertThat(log.get(2).updates()).extracting(u -> new String(u.value(), StandardCharsets.UTF_8))
                .containsExactly("3", "4");
        assertThat(store.latestChange("logs")).isEqualTo(log.get(2).sequence());
        assertThat(store.changes("other", 1, 10).changes()).hasSize(1);

        MetadataChangePage first = store.changes("logs", 1, 2);
        assertThat(first.changes()).extracting(MetadataChange::sequence)
                .containsExactly(log.get(0).sequence(), log.get(1).sequence());
        assertThat(first.hasMore()).isTrue();
        MetadataChangePage rest = store.changes("logs", log.get(1).sequence() + 1, 2);
        assertThat(rest.changes()).extracting(MetadataChange::sequence).containsExactly(log.get(2).sequence());
        assertThat(rest.hasMore()).isFalse();
        assertThat(store.changes("logs", log.get(2).sequence() + 1, 2).changes()).isEmpty();
        assertThat(store.containers()).containsExactly("logs", "other"); // the logs are not containers
    }

    @Test
    void theWatchFiresAtOnceForAnExistingCommitOnTheNextCommitAndNeverAfterCancel() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        Subscription empty = store.watchChanges("watched", 1, fired::incrementAndGet);
        assertThat(fired).hasValue(0);
        create(key("watched", "a"), "1");
        eventually().untilAsserted(() -> assertThat(fired).hasValue(1));
        empty.cancel();

        AtomicInteger present = new AtomicInteger();
        store.watchChanges("watched", 1, present::incrementAndGet);
        eventually().untilAsserted(() -> assertThat(present).hasValue(1));

        long next = store.latestChange("watched") + 1;
        AtomicInteger later = new AtomicInteger();
        Subscription waiting = store.watchChanges("watched", next, later::incrementAndGet);
        AtomicInteger cancelled = new AtomicInteger();
        store.watchChanges("watched", next, cancelled::incrementAndGet).cancel();
        create(key("watched", "b"), "2");
        eventually().untilAsserted(() -> assertThat(later).hasValue(1));
        waiting.cancel();
        create(key("watched", "c"), "3");
        assertThat(store.changes("watched", next, 10).changes()).hasSize(2); // both commits were seen
        assertThat(later).hasValue(1);
        assertThat(cancelled).hasValue(0);
    }
}
