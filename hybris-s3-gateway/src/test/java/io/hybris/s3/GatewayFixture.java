/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.testkit.EventRecorder;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

import java.time.Duration;
import java.util.List;

/** A gateway over an in-memory deployment (three clouds, f=1, 1 MiB chunks) and an AWS SDK v2 client for it. */
abstract class GatewayFixture {
    static final String ACCESS_KEY = "AKIDHYBRISTEST";
    static final String SECRET_KEY = "hybris-test-secret-key";

    protected Hybris hybris;
    protected S3Gateway gateway;
    protected S3Client s3;
    protected List<InMemoryCloudStore> clouds;
    /** The client's events: which cloud requests each gateway call made. */
    protected EventRecorder events;

    @BeforeEach
    void startGateway() {
        clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .chunkThreshold(1 << 20).chunkSize(1 << 20).deadline(Duration.ofSeconds(30));
        events = new EventRecorder();
        config.listener(events);
        clouds.forEach(config::cloud);
        hybris = Hybris.open(config.build());
        gateway = S3Gateway.builder(hybris).port(0).credentials(ACCESS_KEY, SECRET_KEY).start();
        s3 = client(ACCESS_KEY, SECRET_KEY);
    }

    S3Client client(String accessKey, String secretKey) {
        return client(gateway, accessKey, secretKey, true);
    }

    /** f=1 over {@code clouds} on {@code metadata}, 1 MiB chunks, {@code deadline}: what a test adjusts. */
    static HybrisConfig.Builder config(MetadataStore metadata, List<? extends CloudStore> clouds, Duration deadline) {
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(metadata)
                .chunkThreshold(1 << 20).chunkSize(1 << 20).deadline(deadline);
        clouds.forEach(config::cloud);
        return config;
    }

    /** A gateway on a free port over {@code hybris}, with the fixture's keys. */
    static S3Gateway startOver(Hybris hybris) {
        return S3Gateway.builder(hybris).port(0).credentials(ACCESS_KEY, SECRET_KEY).start();
    }

    /** An SDK client of {@code gateway} with the fixture's keys; without its retries when {@code retries} is false. */
    static S3Client clientOf(S3Gateway gateway, boolean retries) {
        return client(gateway, ACCESS_KEY, SECRET_KEY, retries);
    }

    private static S3Client client(S3Gateway gateway, String accessKey, String secretKey, boolean retries) {
        S3ClientBuilder b = S3Client.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey,
                        secretKey)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .httpClient(Apache5HttpClient.create());
        if (!retries) {
            b.overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
        }
        return b.build();
    }

    S3Presigner presigner() {
        return S3Presigner.builder().endpointOverride(gateway.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY,
                        SECRET_KEY)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build();
    }

    @AfterEach
    void stopGateway() {
        if (s3 != null) {
            s3.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (hybris != null) {
            hybris.close();
        }
    }
}
