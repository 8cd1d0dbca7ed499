/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.HybrisConfigurationException;
import io.hybris.spi.support.TrustStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.TlsTrustManagersProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import javax.net.ssl.TrustManager;

/**
 * The SDK objects of one store (S3 client, HTTP client, credentials provider), built from {@link S3Settings} and
 * closed together.
 */
final class S3Clients implements AutoCloseable {
    private final S3Client s3;
    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;

    private S3Clients(S3Client s3, SdkHttpClient http, AwsCredentialsProvider credentials) {
        this.s3 = s3;
        this.http = http;
        this.credentials = credentials;
    }

    /** Builds the clients; invalid trust stores throw {@link HybrisConfigurationException}. */
    static S3Clients create(S3Settings settings) {
        TrustManager[] trust = TrustStore.loadIfSet(settings.trustStore(), settings.trustStorePassword(),
                settings.key("trust-store"), settings.key("trust-store-password"))
                .map(TrustStore::trustManagers).orElse(null);
        Apache5HttpClient.Builder httpBuilder = Apache5HttpClient.builder()
                .connectionTimeout(settings.connectTimeout())
                .socketTimeout(settings.requestTimeout())
                .connectionAcquisitionTimeout(settings.requestTimeout())
                .maxConnections(settings.maxConnections())
                .expectContinueEnabled(false);
        if (trust != null) {
            TlsTrustManagersProvider provider = () -> trust;
            httpBuilder.tlsTrustManagersProvider(provider);
        }
        SdkHttpClient http = new AbortTrackingHttpClient(httpBuilder.build());
        AwsCredentialsProvider credentials = settings.keys()
                .<AwsCredentialsProvider>map(k -> StaticCredentialsProvider.create(k.sessionToken()
                        .<AwsCredentials>map(t -> AwsSessionCredentials.create(k.accessKey(), k.secretKey(), t))
                        .orElseGet(() -> AwsBasicCredentials.create(k.accessKey(), k.secretKey()))))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        try {
            S3ClientBuilder b = S3Client.builder()
                    .httpClient(http)
                    .region(Region.of(settings.region()))
                    .credentialsProvider(credentials)
                    .forcePathStyle(settings.pathStyle())
                    // Hybris hashes every value itself (SHA-256 in its metadata); the SDK's extra CRC checksums
                    // (aws-chunked uploads with trailers) are not understood by every S3-compatible server.
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .overrideConfiguration(o -> o
                            .apiCallAttemptTimeout(settings.requestTimeout())
                            .retryStrategy(r -> r.maxAttempts(settings.retries() + 1)));
            settings.endpoint().ifPresent(b::endpointOverride);
            return new S3Clients(b.build(), http, credentials);
        } catch (RuntimeException e) {
            closeQuietly(http);
            closeQuietly(credentials);
            throw e;
        }
    }

    /** The S3 client. */
    S3Client s3() {
        return s3;
    }

    @Override
    public void close() {
        closeQuietly(s3);
        closeQuietly(http);
        closeQuietly(credentials);
    }

    private static void closeQuietly(Object o) {
        if (o instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing is best effort: nothing else holds these clients
            }
        }
    }
}
