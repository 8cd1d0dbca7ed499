/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Change;
import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A subscription whose thread is interrupted — by its listener, as code that caught an {@link InterruptedException}
 * and restored the interrupt status does — must not go silent (docs/changes.md): it ended with {@code isActive()}
 * false, no {@code onStopped}, and delivered nothing more while changes kept committing. Now it ends visibly, with
 * {@code onStopped} naming the interrupt and the cursor it ended at, from which a new subscription resumes exactly.
 */
class InterruptedSubscriberTest extends HybrisContractFixture {
    @Override
    protected MetadataStore newMetadataStore() {
        return new InMemoryMetadataStore();
    }

    @Test
    void aListenerThatLeavesItsThreadInterruptedEndsTheSubscriptionVisibly() throws Exception {
        assertEndsVisibly(false);
    }

    @Test
    void aListenerInterruptedWhileFailingEndsTheSubscriptionVisibly() throws Exception {
        assertEndsVisibly(true);
    }

    private void assertEndsVisibly(boolean failAfterInterrupt) throws Exception {
        Hybris h = openPlain();
        h.put(C, "a", bytes("1"));
        Recorder r = new Recorder(failAfterInterrupt);
        ChangeSubscription s = h.subscribe(C, "", ChangeCursor.BEGINNING, r);
        try {
            await().atMost(AWAIT).until(() -> r.interrupted.get());
            for (int i = 2; i <= 4; i++) {
                h.put(C, "a", bytes(Integer.toString(i)));
            }
            await().atMost(AWAIT).until(() -> r.versions.size() == 4 || r.stopped != null || !s.isActive());
            if (r.versions.size() < 4 || !s.isActive()) {
                // stopped: it must say so (onStopped comes right after isActive() turns false)
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(r.stopped)
                        .as("onStopped of a subscription that delivered %s of 4 changes, active %s", r.versions.size(),
                                s.isActive())
                        .isNotNull());
                assertThat(r.stopped).hasMessageContaining("interrupted")
                        .hasMessageContaining(s.cursor().toString());
                assertThat(s.isActive()).isFalse();
                // resuming from its cursor delivers exactly the rest
                Recorder rest = new Recorder(false);
                rest.interrupted.set(true);
                try (ChangeSubscription again = h.subscribe(C, "", s.cursor(), rest)) {
                    await().atMost(AWAIT).until(() -> r.versions.size() + rest.versions.size() >= 4);
                    List<String> all = new CopyOnWriteArrayList<>(r.versions);
                    all.addAll(rest.versions);
                    List<String> log = h.changes(C, "", ChangeCursor.BEGINNING, 100).changes().stream()
                            .map(c -> c.version().version()).toList();
                    assertThat(all).isEqualTo(log);
                }
            }
        } finally {
            s.close();
        }
    }

    private static final class Recorder implements ChangeListener {
        final List<String> versions = new CopyOnWriteArrayList<>();
        final AtomicBoolean interrupted = new AtomicBoolean();
        private final boolean failAfterInterrupt;
        volatile HybrisException stopped;

        Recorder(boolean failAfterInterrupt) {
            this.failAfterInterrupt = failAfterInterrupt;
        }

        @Override
        public void onChange(Change change) {
            if (interrupted.compareAndSet(false, true)) {
                Thread.currentThread().interrupt(); // a blocking call of the listener's was interrupted
                if (failAfterInterrupt) {
                    throw new IllegalStateException("interrupted while applying " + change.key());
                }
            }
            versions.add(change.version().version());
        }

        @Override
        public void onStopped(HybrisException cause) {
            stopped = cause;
        }
    }
}
