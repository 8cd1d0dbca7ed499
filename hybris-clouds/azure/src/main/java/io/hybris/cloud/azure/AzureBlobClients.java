/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.ProxyOptions;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.ClientOptions;
import com.azure.core.util.Configuration;
import com.azure.core.util.ConfigurationBuilder;
import com.azure.core.util.ConfigurationSource;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.support.TrustStore;

import javax.net.ssl.SSLContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds the SDK's {@link BlobContainerClient} for one store from its {@link AzureBlobSettings}: the JDK HTTP client
 * (HTTP/1.1, connect/response/read timeouts, optional trust store, its own daemon threads, requests' length
 * written by the JDK: {@link ContentLengthDroppingJdkClient}) behind a {@link QuietJdkHttpClient}, the SDK retry
 * policy
 * ({@code maxTries = retries + 1}, exponential from 200 ms, at most 2 s between tries) and the credentials.
 * {@link #close()} stops the HTTP client's threads. Thread-safe.
 */
final class AzureBlobClients implements AutoCloseable {
    /** The first pause before an SDK retry. */
    static final Duration RETRY_DELAY = Duration.ofMillis(200);
    /** The longest pause between SDK retries. */
    static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(2);

    /**
     * The SDK JDK adapter's own configuration: {@code Content-Length} is an allowed header, so the adapter passes it
     * to {@link ContentLengthDroppingJdkClient} instead of dropping it with a WARN for every upload.
     */
    static final Configuration ADAPTER_CONFIGURATION = adapterConfiguration();

    private final BlobContainerClient container;
    private final ExecutorService executor;

    private AzureBlobClients(BlobContainerClient container, ExecutorService executor) {
        this.container = container;
        this.executor = executor;
    }

    /** Builds the clients; bad trust-store settings throw {@link HybrisConfigurationException} naming the option. */
    static AzureBlobClients open(AzureBlobSettings s) {
        return open(s, UnaryOperator.identity(), request -> { });
    }

    /**
     * Builds the clients with {@code aroundJdk} between the driver's {@link QuietJdkHttpClient} and the SDK's JDK
     * HTTP adapter, and {@code seenByJdk} shown every request the adapter hands to the JDK client (tests record what
     * reaches each with them).
     */
    static AzureBlobClients open(AzureBlobSettings s, UnaryOperator<HttpClient> aroundJdk,
                                 Consumer<java.net.http.HttpRequest> seenByJdk) {
        SSLContext ssl = TrustStore.loadIfSet(s.trustStore(), s.trustStorePassword(), s.key("trust-store"),
                s.key("trust-store-password")).map(TrustStore::sslContext).orElse(null);
        ExecutorService executor = executor(s.cloudId());
        try {
            java.net.http.HttpClient.Builder jdk = ContentLengthDroppingJdkClient.around(
                    java.net.http.HttpClient.newBuilder(), seenByJdk)
                    .version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .followRedirects(java.net.http.HttpClient.Redirect.NEVER)
                    .executor(executor);
            if (ssl != null) {
                jdk.sslContext(ssl);
            }
            HttpClient http = new QuietJdkHttpClient(aroundJdk.apply(new JdkHttpClientBuilder(jdk)
                    // the adapter's own settings, nothing JVM-wide: see ContentLengthDroppingJdkClient
                    .configuration(ADAPTER_CONFIGURATION)
                    // what the adapter finds when it has no configuration of its own (environment, system)
                    .proxy(ProxyOptions.fromConfiguration(Configuration.getGlobalConfiguration()))
                    .connectionTimeout(s.connectTimeout())
                    .responseTimeout(s.requestTimeout())
                    .readTimeout(s.requestTimeout())
                    .writeTimeout(s.requestTimeout())
                    .build()));
            BlobContainerClientBuilder b = new BlobContainerClientBuilder()
                    .httpClient(http)
                    .clientOptions(new ClientOptions().setApplicationId("hybris"))
                    .retryOptions(retryOptions(s))
                    .containerName(s.container());
            if (s.credentials() instanceof AzureBlobSettings.ConnectionString cs) {
                b.connectionString(cs.value());
            } else {
                b.endpoint(s.endpoint().toString());
                if (s.credentials() instanceof AzureBlobSettings.SharedKey k) {
                    b.credential(new StorageSharedKeyCredential(k.account(), k.key()));
                } else if (s.credentials() instanceof AzureBlobSettings.SasToken t) {
                    b.sasToken(t.token());
                }
            }
            return new AzureBlobClients(b.buildClient(), executor);
        } catch (IllegalArgumentException | IllegalStateException e) {
            executor.shutdownNow();
            String options = s.credentials() instanceof AzureBlobSettings.ConnectionString
                    ? s.key("connection-string") : s.key("endpoint") + " and " + s.key(s.credentials().describe()
                    .startsWith("sas") ? "sas-token" : "key");
            throw new HybrisConfigurationException("cannot configure Azure cloud '" + s.cloudId() + "' ("
                    + s.describeLocation() + "): " + e.getMessage() + "; check " + options, e);
        } catch (RuntimeException e) {
            executor.shutdownNow();
            throw e;
        }
    }

    /** The container client (thread-safe). */
    BlobContainerClient container() {
        return container;
    }

    /**
     * Stops the HTTP client's worker threads. This does not end an exchange in flight (the store ends its calls
     * first: {@link CallsInFlight}). (On Java 17 the JDK client has no close method; its selector thread ends once
     * the client is unreachable.)
     */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    static RequestRetryOptions retryOptions(AzureBlobSettings s) {
        // tryTimeout is whole seconds in the SDK; round up so a sub-second request-timeout is not zero.
        long seconds = Math.max(1, (s.requestTimeout().toMillis() + 999) / 1000);
        return new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, s.retries() + 1, Duration.ofSeconds(seconds),
                RETRY_DELAY, MAX_RETRY_DELAY, null);
    }

    private static Configuration adapterConfiguration() {
        // sources of its own: the no-argument ConfigurationBuilder shares the global configuration's sources, and a
        // property put into it is seen by every Azure client in the JVM (measured on azure-core 1.61)
        ConfigurationSource none = path -> Map.of();
        return new ConfigurationBuilder(none, none, none)
                .putProperty("jdk.httpclient.allowRestrictedHeaders", "content-length").build();
    }

    private static ExecutorService executor(String cloudId) {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "hybris-azure-" + cloudId + "-http-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
