/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hybris gateway} in a spawned process on the embedded default: it prints its endpoint, serves S3 there
 * with the keys from the environment (an SDK client creates a bucket, puts and gets an object), and stops on
 * SIGTERM; without keys it refuses to start, naming the variables.
 */
class GatewayCliTest {
    @TempDir
    Path data;

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
