/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * aws-cli uploading a file in parts while its gateway is closed and another started on the same port and
 * deployment (a restart): the client's retries finish the upload with the right bytes, no upload is left, and
 * {@code aws s3 sync} run again afterwards transfers nothing. Needs the real clients (see {@link RealClientsTest}).
 */
class RealClientsRestartTest {
    @TempDir
    Path dir;

    @Test
    void awsCliMultipartUploadSurvivesAGatewayRestartAndSyncConverges() throws Exception {
        Properties clients = clients();
        HybrisConfig.Builder config = HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
                .cloud(new DirectoryCloudStore("c0", dir.resolve("c0")))
                .cloud(new DirectoryCloudStore("c1", dir.resolve("c1")))
                .cloud(new DirectoryCloudStore("c2", dir.resolve("c2"))).deadline(Duration.ofSeconds(30));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path tree = Files.createDirectories(dir.resolve("tree"));
        byte[] big = new byte[48 << 20];
        new Random(11).nextBytes(big);
        Files.write(tree.resolve("big.bin"), big);
        Files.writeString(tree.resolve("small.txt"), "small");
        try (Hybris hybris = Hybris.open(config.build())) {
            S3Gateway gateway = start(hybris, port);
            try {
                Process mb = aws(clients, port, "s3", "mb", "s3://bkt");
                assertThat(mb.exitValue()).as(new String(mb.getInputStream().readAllBytes(),
                        StandardCharsets.UTF_8)).isZero();
                Process upload = awsStart(clients, port, "s3", "cp", tree.resolve("big.bin").toString(),
                        "s3://bkt/tree/big.bin");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> hybris.list(Buckets.UPLOADS).size() >= 2 || !upload.isAlive());
                assertThat(upload.isAlive()).as("the upload is still running at the restart").isTrue();
                gateway.close();
                gateway = start(hybris, port);
                assertThat(upload.waitFor(120, TimeUnit.SECONDS)).isTrue();
                String out = new String(upload.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(upload.exitValue()).as(out).isZero();
                assertThat(Arrays.equals(hybris.get("bkt", "tree/big.bin").orElseThrow(), big)).isTrue();
                assertThat(hybris.list(Buckets.UPLOADS)).as("no upload left").isEmpty();

                Process sync = aws(clients, port, "s3", "sync", tree.toString(), "s3://bkt/tree");
                assertThat(sync.exitValue()).isZero();
                Process again = aws(clients, port, "s3", "sync", tree.toString(), "s3://bkt/tree");
                String second = new String(again.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(again.exitValue()).isZero();
                assertThat(second).as("the second sync transfers nothing").isBlank();
            } finally {
                gateway.close();
            }
        }
    }

    private static S3Gateway start(Hybris hybris, int port) {
        return S3Gateway.builder(hybris).port(port).credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY)
                .start();
    }

    private Process aws(Properties clients, int port, String... args) throws Exception {
        Process p = awsStart(clients, port, args);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return p;
    }

    private Process awsStart(Properties clients, int port, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(clients.getProperty("aws"), "--endpoint-url",
                "http://127.0.0.1:" + port));
        cmd.addAll(List.of(args));
        if (!args[1].equals("mb")) {
            cmd.add("--only-show-errors");
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Path cfg = dir.resolve("aws-config");
        if (!Files.exists(cfg)) {
            Files.writeString(cfg, "[default]\ns3 =\n    addressing_style = path\n    multipart_chunksize = 8MB\n");
        }
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("AWS_"));
        env.put("AWS_ACCESS_KEY_ID", GatewayFixture.ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", GatewayFixture.SECRET_KEY);
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("AWS_CONFIG_FILE", cfg.toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("aws-credentials").toString());
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        return pb.start();
    }

    private static Properties clients() throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(RealClientsTest.clientsListing())) {
            p.load(in);
        }
        assertThat(p.getProperty("aws")).isNotNull();
        return p;
    }
}
