/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.google.api.client.http.apache.v2.ApacheHttpTransport;
import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.HttpStorageOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.StorageRetryStrategy;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.support.TrustStore;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClientBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the SDK client (HTTP/JSON transport) of a {@link GcsCloudStore} from its {@link GcsSettings}, on Apache
 * HttpClient, whose connections {@link GcsAbortableRequests} can shut down from another thread.
 */
final class GcsClients {
    /** A project id for anonymous clients without one: only bucket creation sends it, and emulators ignore it. */
    static final String ANONYMOUS_PROJECT = "hybris-anonymous";
    /**
     * Connections to the endpoint at most (pooled and kept alive): beyond the concurrent requests Hybris makes to
     * one cloud (its I/O threads, chunk read-ahead, the gateway's part uploads), so no request waits for one.
     */
    static final int MAX_CONNECTIONS = 512;
    /** Idle pooled connections are closed after this long. */
    private static final long IDLE_SECONDS = 30;

    /** The SDK client and the HTTP client under it, which the store closes. */
    record Clients(Storage storage, CloseableHttpClient http) {
    }

    private GcsClients() {
    }

    /**
     * Creates the client.
     *
     * @param keyName the full property key of an option, for error messages
     * @throws HybrisConfigurationException if the credentials or the trust store cannot be loaded
     */
    static Clients create(GcsSettings s, Function<String, String> keyName, GcsAbortableRequests requests) {
        Credentials credentials = credentials(s, keyName); // before the HTTP client: nothing to close if it fails
        CloseableHttpClient http = httpClient(s, keyName, requests);
        try {
            return new Clients(storage(s, credentials, new ApacheHttpTransport(http)), http);
        } catch (RuntimeException e) {
            try {
                http.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static Storage storage(GcsSettings s, Credentials credentials, ApacheHttpTransport transport) {
        HttpStorageOptions.Builder b = StorageOptions.http()
                .setCredentials(credentials)
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout(millis(s.connectTimeout()))
                        .setReadTimeout(millis(s.requestTimeout()))
                        .setHttpTransportFactory(() -> transport)
                        .build())
                .setRetrySettings(retrySettings(s))
                // Hybris object names are unique per version, so repeating a put is harmless: allow retrying
                // every operation (only matters when retries > 0)
                .setStorageRetryStrategy(StorageRetryStrategy.getUniformStorageRetryStrategy());
        s.endpoint().ifPresent(e -> b.setHost(e.toString()));
        // Setting a project avoids the SDK's project detection, which may probe the GCE metadata server.
        String project = s.project().orElse(
                s.credentialSource() == GcsSettings.CredentialSource.ANONYMOUS ? ANONYMOUS_PROJECT : null);
        if (project != null) {
            b.setProjectId(project);
        }
        return b.build().getService();
    }

    /** maxAttempts = retries + 1, short backoff (jittered by the SDK), each attempt bounded by the request timeout. */
    static RetrySettings retrySettings(GcsSettings s) {
        Duration attempt = s.requestTimeout().plus(s.connectTimeout());
        Duration maxDelay = Duration.ofSeconds(1);
        return RetrySettings.newBuilder()
                .setMaxAttempts(s.retries() + 1)
                .setInitialRetryDelayDuration(Duration.ofMillis(100))
                .setRetryDelayMultiplier(2.0)
                .setMaxRetryDelayDuration(maxDelay)
                .setInitialRpcTimeoutDuration(s.requestTimeout())
                .setRpcTimeoutMultiplier(1.0)
                .setMaxRpcTimeoutDuration(s.requestTimeout())
                .setTotalTimeoutDuration(attempt.plus(maxDelay).multipliedBy(s.retries() + 1L))
                .build();
    }

    private static Credentials credentials(GcsSettings s, Function<String, String> keyName) {
        switch (s.credentialSource()) {
            case ANONYMOUS:
                return NoCredentials.getInstance();
            case EXPLICIT:
                return s.credentials().orElseThrow();
            case FILE:
                var file = s.credentialsFile().orElseThrow();
                try (InputStream in = Files.newInputStream(file)) {
                    return GoogleCredentials.fromStream(in);
                } catch (IOException | RuntimeException e) {
                    throw new HybrisConfigurationException(keyName.apply("credentials-file") + "=" + file
                            + " cannot be read as a Google credentials JSON file (a service account key): " + e, e);
                }
            case APPLICATION_DEFAULT:
            default:
                try {
                    return GoogleCredentials.getApplicationDefault();
                } catch (IOException e) {
                    throw new HybrisConfigurationException("cloud '" + s.cloudId() + "': no GCS credentials: set "
                            + keyName.apply("credentials-file") + " to a service account key file, set "
                            + keyName.apply("anonymous") + "=true for an emulator, or provide Application Default "
                            + "Credentials (GOOGLE_APPLICATION_CREDENTIALS or gcloud auth application-default "
                            + "login): " + e.getMessage(), e);
                }
        }
    }

    /**
     * The HTTP client: Google's defaults for Apache HttpClient (system proxy settings, no redirects, no automatic
     * retries), {@value #MAX_CONNECTIONS} pooled connections, no {@code Accept-Encoding} of its own (stored
     * versions are hashed, often encrypted bytes: compressing them costs both ends CPU for nothing; measured 0.05-0.1
     * ms more per small GET on the emulator with it), the configured trust store, and the request executor that
     * lets a call's requests be aborted.
     */
    private static CloseableHttpClient httpClient(GcsSettings s, Function<String, String> keyName,
                                                  GcsAbortableRequests requests) {
        HttpClientBuilder hb = ApacheHttpTransport.newDefaultHttpClientBuilder()
                .setMaxConnTotal(MAX_CONNECTIONS).setMaxConnPerRoute(MAX_CONNECTIONS)
                .evictIdleConnections(IDLE_SECONDS, TimeUnit.SECONDS)
                .disableContentCompression()
                .setRequestExecutor(requests.executor());
        Optional<KeyStore> trusted = TrustStore.loadIfSet(s.trustStore(), s.trustStorePassword(),
                keyName.apply("trust-store"), keyName.apply("trust-store-password")).flatMap(TrustStore::keyStore);
        if (trusted.isPresent()) {
            try {
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trusted.get());
                SSLContext tls = SSLContext.getInstance("TLS");
                tls.init(null, tmf.getTrustManagers(), null);
                hb.setSSLSocketFactory(new SSLConnectionSocketFactory(tls));
            } catch (GeneralSecurityException e) {
                throw new HybrisConfigurationException(keyName.apply("trust-store") + "=" + s.trustStore().get()
                        + " cannot be used as a trust store: " + e, e);
            }
        }
        return hb.build();
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
