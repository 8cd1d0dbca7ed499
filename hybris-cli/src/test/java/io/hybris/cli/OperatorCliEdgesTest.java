/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorCliEdgesTest {
    @TempDir
    static Path data;
    @TempDir
    static Path work;
    private static CliProcess cli;

    @BeforeAll
    static void setUp() {
        cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void serveOnABusyPortSaysWhichPort() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliProcess.Result r = cli.run("serve", "--metrics-port", Integer.toString(busy.getLocalPort()));
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(r.errLines()).as(r.toString()).hasSize(1);
            assertThat(r.errLines().get(0)).contains("--metrics-port", Integer.toString(busy.getLocalPort()));
        }
    }

    @Test
    void costWithANegativePeriodIsAUsageError() {
        CliProcess.Result r = cli.run("cost", "--period", "PT-1H");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE);
        assertThat(r.errLines()).hasSize(1);
        assertThat(r.errLines().get(0)).contains("--period");
    }

    @Test
    void cloudsWithTooFewHealthyPrintsOneJsonDocument() throws IOException {
        int port = closedPort();
        StringBuilder config = new StringBuilder("hybris.f=1\nhybris.deadline=10s\nhybris.rmds.type=memory\n"
                + "hybris.cloud.disk.type=directory\nhybris.cloud.disk.path=" + work.resolve("d") + "\n");
        for (String id : new String[] {"s3a", "s3b"}) {
            config.append("hybris.cloud.").append(id).append(".type=s3\n")
                    .append("hybris.cloud.").append(id).append(".bucket=bkt\n")
                    .append("hybris.cloud.").append(id).append(".endpoint=http://127.0.0.1:").append(port).append('\n')
                    .append("hybris.cloud.").append(id).append(".access-key=a\n")
                    .append("hybris.cloud.").append(id).append(".secret-key=s\n")
                    .append("hybris.cloud.").append(id).append(".connect-timeout=1s\n")
                    .append("hybris.cloud.").append(id).append(".request-timeout=2s\n");
        }
        Path file = work.resolve("down.properties");
        Files.writeString(file, config);
        CliProcess.Result r = cli.run("--config", file.toString(), "--json", "clouds");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.UNAVAILABLE);
        assertThat(r.stdout().strip().lines()).as("one JSON document").hasSize(1);
        JsonReader.object(r.stdout());
    }
}
