/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code hybris gateway} in a spawned process on the embedded default: it prints its endpoint, serves S3 there
 * with the keys from the environment (an SDK client creates a bucket, puts and gets an object), and stops on
 * SIGTERM, letting the requests in flight answer; without keys it refuses to start, naming the variables.
 */
class GatewayCliTest {
    @TempDir
    Path data;
    @TempDir
    Path work;

    @Test
    void servesS3WithTheKeysFromTheEnvironmentUntilStopped() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "gateway", "--port", "0"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HYBRIS_S3_ACCESS_KEY", "cli-test");
        pb.environment().put("HYBRIS_S3_SECRET_KEY", "cli-test-secret");
        Process p = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(120, TimeUnit.SECONDS);
            assertThat(line).startsWith("serving S3 on http://127.0.0.1:").contains("access key cli-test");
            URI endpoint = URI.create(line.substring("serving S3 on ".length(), line.indexOf(" (")));
            try (S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("cli-test",
                            "cli-test-secret")))
                    .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                    .httpClient(Apache5HttpClient.create()).build()) {
                s3.createBucket(b -> b.bucket("from-cli"));
                s3.putObject(b -> b.bucket("from-cli").key("hello.txt"), RequestBody.fromString("hello via S3"));
                assertThat(s3.getObjectAsBytes(b -> b.bucket("from-cli").key("hello.txt")).asUtf8String())
                        .isEqualTo("hello via S3");
            }
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            p.destroyForcibly();
        }
    }

    /**
     * SIGTERM while a PUT's body is still arriving: the gateway refuses new requests with 503, lets the PUT finish
     * and answer, closes its client and exits 143; the object is there afterwards. The process used to halt at once
     * (its shutdown hook only woke the command, and the JVM does not wait for other threads), cutting the PUT off
     * with its outcome unknown, and never closed its client or the embedded ZooKeeper.
     */
    @Test
    void aPutInFlightWhenStoppedIsAnsweredAndKept() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "gateway", "--port", "0"));
        Path err = work.resolve("gateway.err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().put("HYBRIS_S3_ACCESS_KEY", "cli-test");
        pb.environment().put("HYBRIS_S3_SECRET_KEY", "cli-test-secret");
        Process p = pb.start();
        byte[] value = new byte[4 << 20];
        new Random(7).nextBytes(value);
        AtomicLong sent = new AtomicLong();
        CountDownLatch rest = new CountDownLatch(1);
        int half = value.length / 2;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(120, TimeUnit.SECONDS);
            assertThat(line).startsWith("serving S3 on http://127.0.0.1:");
            URI endpoint = URI.create(line.substring("serving S3 on ".length(), line.indexOf(" (")));
            try (S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("cli-test",
                            "cli-test-secret")))
                    .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                    .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                    .httpClient(Apache5HttpClient.create()).build()) {
                s3.createBucket(b -> b.bucket("drained"));
                CompletableFuture<PutObjectResponse> put = CompletableFuture.supplyAsync(() -> s3.putObject(
                        b -> b.bucket("drained").key("big.bin"), RequestBody.fromContentProvider(
                                () -> new HeldBody(value, half, rest, sent), value.length,
                                "application/octet-stream")));
                await().atMost(Duration.ofSeconds(60)).until(() -> sent.get() >= half || put.isDone());
                assertThat(put).as("the PUT waits for the rest of its body").isNotDone();

                p.destroy(); // SIGTERM
                await().atMost(Duration.ofSeconds(60))
                        .untilAsserted(() -> assertThat(Files.readString(err)).contains("hybris: stopping"));
                assertThatThrownBy(() -> s3.headBucket(b -> b.bucket("drained")))
                        .as("a request that arrives while the gateway stops")
                        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(503));
                rest.countDown();
                assertThat(put.get(60, TimeUnit.SECONDS).eTag()).as("the PUT in flight was answered").isNotBlank();
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the gateway exited").isTrue();
            assertThat(p.exitValue()).as("the JVM's status for SIGTERM").isEqualTo(143);
        } finally {
            rest.countDown();
            p.destroyForcibly();
        }
        assertThat(Files.readString(err)).doesNotContain("cut off");
        Path copy = work.resolve("big.bin");
        CliProcess.Result get = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()))
                .run("get", "drained", "big.bin", copy.toString());
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(Files.readAllBytes(copy)).as("the PUT answered before the stop is stored").isEqualTo(value);
    }

    /** A request body that stops after {@code half} bytes until {@code rest} is released. */
    private static final class HeldBody extends InputStream {
        private final byte[] value;
        private final int half;
        private final CountDownLatch rest;
        private final AtomicLong sent;
        private int pos;

        HeldBody(byte[] value, int half, CountDownLatch rest, AtomicLong sent) {
            this.value = value;
            this.half = half;
            this.rest = rest;
            this.sent = sent;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos == half) {
                try {
                    rest.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            if (pos == value.length) {
                return -1;
            }
            int n = Math.min(len, (pos < half ? half : value.length) - pos);
            System.arraycopy(value, pos, b, off, n);
            pos += n;
            sent.set(pos);
            return n;
        }
    }

    @Test
    void refusesToStartWithoutKeys() throws Exception {
        List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
        cmd.addAll(List.of("--data-dir", data.toString(), "gateway", "--port", "0"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("HYBRIS_S3_ACCESS_KEY");
        pb.environment().remove("HYBRIS_S3_SECRET_KEY");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(output).contains("HYBRIS_S3_ACCESS_KEY").contains("HYBRIS_S3_SECRET_KEY");
    }
}
