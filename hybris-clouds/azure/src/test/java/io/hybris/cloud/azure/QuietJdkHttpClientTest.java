/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link QuietJdkHttpClient}: where the late error of an abandoned request goes, against a server that holds it
 * open. (Before this client, an interrupted download logged Reactor's "default onErrorDropped" at ERROR.)
 */
class QuietJdkHttpClientTest {
    private static final String KEY = "c2NyaXB0ZWQta2V5"; // base64 of "scripted-key"

    @Test
    void aLateErrorOfACancelledExchangeGoesToTheClientsOwnHandler() {
        // the SDK's JDK adapter answers with Mono.fromCompletionStage(HttpClient.sendAsync(...)); cancelling the
        // JDK's future completes it with CompletionException(CancellationException), and Reactor, which expects a
        // bare CancellationException after a cancel, reports that as a dropped error
        List<Throwable> late = new CopyOnWriteArrayList<>();
        CompletableFuture<HttpResponse> exchange = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                CompletionException e = new CompletionException(new CancellationException("Request cancelled"));
                late.add(e);
                return completeExceptionally(e);
            }
        };
        HttpClient adapter = request -> Mono.fromCompletionStage(exchange);
        List<Throwable> dropped = new CopyOnWriteArrayList<>();

        new QuietJdkHttpClient(adapter, dropped::add)
                .send(new HttpRequest(HttpMethod.GET, "http://127.0.0.1:1/blob"), Context.NONE)
                .subscribe(response -> { }, error -> { }).dispose();

        assertThat(late).as("the subscription was cancelled").hasSize(1);
        assertThat(dropped).containsExactlyElementsOf(late);
    }

    @Test
    void theLateErrorOfAnInterruptedDownloadGoesToTheClientsOwnHandlerNotReactorsDefaultErrorLog()
            throws Exception {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        try (ScriptedBlobServer server = new ScriptedBlobServer();
             AzureBlobCloudStore store = AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint())
                     .account("acct").key(KEY).container("scripted").requestTimeout(Duration.ofSeconds(60))
                     .aroundJdkHttpClient(jdk -> new QuietJdkHttpClient(jdk, dropped::add)).build()) {
            server.failWith(404, "BlobNotFound");
            // whether the JDK reports the cancellation late is a race inside it (most interrupts here do): repeat
            for (int i = 0; i < 40 && dropped.isEmpty(); i++) {
                CountDownLatch arrived = server.hold();
                CompletableFuture<Throwable> outcome = new CompletableFuture<>();
                Thread caller = new Thread(() -> {
                    try {
                        store.get("hybris/held#1_c", 100);
                        outcome.complete(null);
                    } catch (Throwable t) {
                        outcome.complete(t);
                    }
                }, "azure-quiet-test");
                caller.start();
                assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the get reached the server").isTrue();
                caller.interrupt();
                assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(TransientCloudException.class);
                server.release();
            }
        }
        assertThat(dropped).as("the late cancellations came to the handler").isNotEmpty()
                .allMatch(QuietJdkHttpClientTest::isCancellation);
    }

    /** Whether {@code error} or one of its causes is a {@link CancellationException}. */
    private static boolean isCancellation(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CancellationException) {
                return true;
            }
        }
        return false;
    }
}
