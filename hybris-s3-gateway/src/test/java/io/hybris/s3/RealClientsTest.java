/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.testkit.CorruptingCloudStore;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway with real S3 clients nobody here wrote — aws-cli, boto3 and rclone, installed by
 * src/test/install-s3-clients.sh — through src/test/s3-clients-smoke.sh in its full mode (multipart uploads of
 * 20 and 300 MiB, presigned URLs of both signature versions and curl, conditional PUT, ranges at chunk
 * boundaries, sync, delimiter listings, copy, 2,500 keys paginated and deleted, rclone copy/sync/check with
 * modification times), while one of the deployment's three clouds corrupts every byte it returns: every byte
 * that reaches a client is compared with what it uploaded.
 */
class RealClientsTest {
    @TempDir
    Path dir;

    @Test
    void awsCliBoto3AndRcloneGetCorrectBytesWhileACloudCorruptsEverything() throws Exception {
        Path clients = clientsListing();
        CorruptingCloudStore bad = CorruptingCloudStore.of(new DirectoryCloudStore("c0", dir.resolve("c0")));
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(bad).cloud(new DirectoryCloudStore("c1", dir.resolve("c1")))
                .cloud(new DirectoryCloudStore("c2", dir.resolve("c2"))).deadline(Duration.ofSeconds(60));
        try (Hybris hybris = Hybris.open(config.build());
             S3Gateway gateway = S3Gateway.builder(hybris).port(0)
                     .credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).start()) {
            Path script = Path.of("..", "src", "test", "s3-clients-smoke.sh").toAbsolutePath().normalize();
            Path log = dir.resolve("smoke.log");
            ProcessBuilder pb = new ProcessBuilder(script.toString(), gateway.endpoint().toString(),
                    GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().put("HYBRIS_S3_CLIENTS", clients.toString());
            pb.environment().put("S3_SMOKE_FULL", "1");
            pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
            Process p = pb.start();
            boolean finished = p.waitFor(20, TimeUnit.MINUTES);
            if (!finished) {
                p.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            System.out.println(output);
            assertThat(finished).as("the clients finished within 20 minutes").isTrue();
            assertThat(p.exitValue()).as(output).isZero();
            assertThat(output).contains("all 27 steps passed").doesNotContain("FAIL");
            assertThat(bad.isActive()).isTrue();
        }
    }

    /** The listing of the real clients' paths; the test is skipped without one, and fails in CI. */
    static Path clientsListing() throws IOException {
        String file = System.getProperty("hybris.test.s3clients");
        if (file == null || file.isBlank()) {
            String how = "no S3 clients: run src/test/run-tests.sh, or pass -Dhybris.test.s3clients=<the listing"
                    + " src/test/install-s3-clients.sh prints, saved to a file>";
            if ("true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("hybris.test.require-env")) {
                throw new IllegalStateException(how);
            }
            Assumptions.abort(how);
        }
        Path listing = Path.of(file);
        assertThat(Files.readAllLines(listing)).anyMatch(l -> l.startsWith("aws=")).anyMatch(l -> l.startsWith("rclone="));
        return listing;
    }
}
