/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ChangeCursor;
import io.hybris.ChangeListener;
import io.hybris.ChangeSubscription;
import io.hybris.ClientClosedException;
import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code subscribe()} racing with {@code Hybris.close()}: a subscription registered after the client's close took
 * its list of subscriptions was never stopped, and retried its reads against the shut-down client forever. Held at
 * the store's {@code hasChangeLog} (after the client's open check) while the client closes, the subscribe is now
 * refused with {@link ClientClosedException} (or, registered in time, stopped with it).
 */
class SubscribeWhileClosingTest extends HybrisContractFixture {
    private final AtomicBoolean holdNext = new AtomicBoolean();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    protected MetadataStore newMetadataStore() {
        return new ForwardingMetadataStore(new InMemoryMetadataStore()) {
            @Override
            public boolean hasChangeLog() {
                if (holdNext.compareAndSet(true, false)) {
                    held.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.hasChangeLog();
            }
        };
    }

    @Test
    void aSubscriptionStartedWhileTheClientClosesEndsWithClientClosed() throws Exception {
        Hybris h = openPlain();
        h.put(C, "a", bytes("1"));
        AtomicReference<HybrisException> stopped = new AtomicReference<>();
        ChangeListener listener = new ChangeListener() {
            @Override
            public void onChange(io.hybris.Change change) {
            }

            @Override
            public void onStopped(HybrisException cause) {
                stopped.set(cause);
            }
        };
        holdNext.set(true);
        CompletableFuture<ChangeSubscription> subscribing =
                CompletableFuture.supplyAsync(() -> h.subscribe(C, "", ChangeCursor.BEGINNING, listener));
        assertThat(held.await(30, TimeUnit.SECONDS)).isTrue(); // subscribe() passed the client's open check
        h.close();
        release.countDown();
        ChangeSubscription s;
        try {
            s = subscribing.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ClientClosedException.class); // refusing it is fine too
            return;
        }
        // a subscription of a closed client must end, as every other one did, with ClientClosedException
        await().atMost(AWAIT).until(() -> stopped.get() != null || !s.isActive());
        assertThat(stopped.get()).isInstanceOf(ClientClosedException.class);
    }
}
