/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing a cloud that was unreachable at open while a call is starting the real store (a provider's start-up over
 * the network, which may take as long as its own timeouts): close() waited for that start-up, holding up the client's
 * close behind it; it now returns at once, and the store started after it is closed by the start itself.
 */
@Timeout(30)
class DeferredCloudStoreCloseTest {

    @Test
    void closeDoesNotWaitForAStartInProgressAndTheLateStoreIsClosed() throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch finishStart = new CountDownLatch(1);
        AtomicBoolean lateClosed = new AtomicBoolean();
        CloudStore memory = new InMemoryCloudStore("c0");
        CloudStore real = (CloudStore) java.lang.reflect.Proxy.newProxyInstance(CloudStore.class.getClassLoader(),
                new Class<?>[] {CloudStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        lateClosed.set(true);
                        return null;
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        DeferredCloudStore cloud = new DeferredCloudStore("c0", () -> {
            starting.countDown();
            boolean done = false;
            while (!done) {
                try {
                    done = finishStart.await(20, TimeUnit.SECONDS); // a driver that does not heed interrupts
                } catch (InterruptedException e) {
                    // ignored, as such a driver does
                }
            }
            return real;
        }, new TransientCloudException("c0", "refused", null),
                System.nanoTime() - DeferredCloudStore.RETRY_INTERVAL.toNanos());
        CompletableFuture<Void> put = CompletableFuture.runAsync(() -> cloud.put("k", new byte[1]));
        assertThat(starting.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> close = CompletableFuture.runAsync(cloud::close);
        try {
            close.get(5, TimeUnit.SECONDS);
        } finally {
            finishStart.countDown();
        }
        assertThatThrownBy(put::join).hasCauseInstanceOf(TransientCloudException.class);
        assertThat(lateClosed).as("the store started after close is closed").isTrue();
        assertThatThrownBy(() -> cloud.get("k", 10)).isInstanceOf(TransientCloudException.class);
    }
}
