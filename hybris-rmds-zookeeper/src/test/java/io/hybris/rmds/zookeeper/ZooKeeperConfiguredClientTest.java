package io.hybris.rmds.zookeeper;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataUnavailableException;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A client configured entirely from properties, with ZooKeeper selected by configuration only. */
class ZooKeeperConfiguredClientTest {

    @Test
    void propertiesFileSelectsZooKeeperAndDirectoryClouds(@TempDir Path dir) throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            Path file = dir.resolve("hybris.properties");
            Files.writeString(file, String.join("\n",
                    "hybris.f=1",
                    "hybris.client-id=props-client",
                    "hybris.rmds.type=zookeeper",
                    "hybris.rmds.zookeeper.root=/from-properties",
                    "hybris.cloud.d1.type=directory",
                    "hybris.cloud.d1.path=" + dir.resolve("d1"),
                    "hybris.cloud.d2.type=directory",
                    "hybris.cloud.d2.path=" + dir.resolve("d2"),
                    "hybris.cloud.d3.type=directory",
                    "hybris.cloud.d3.path=" + dir.resolve("d3"),
                    "other.application.key=ignored"), StandardCharsets.UTF_8);
            // the connect string comes from the environment, as a secret-bearing setting would
            HybrisConfig config = HybrisConfig.fromProperties(file,
                    Map.of("HYBRIS_RMDS_ZOOKEEPER_CONNECT", server.getConnectString()));
            try (Hybris h = Hybris.open(config)) {
                h.put("docs", "readme", "hello".getBytes(StandardCharsets.UTF_8));
                assertThat(h.get("docs", "readme")).hasValueSatisfying(
                        v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("hello"));
                assertThat(h.describe("docs", "readme").orElseThrow().clientId()).isEqualTo("props-client");
            }
            try (Stream<Path> files = Files.walk(dir.resolve("d1"))) {
                assertThat(files.filter(Files::isRegularFile).map(Path::toString))
                        .anyMatch(p -> p.contains("readme#1_props-client."))
                        .as("written under the default prefix").allMatch(p -> p.contains("hybris"));
            }
        }
    }

    @Test
    void unreachableZooKeeperFailsOpenClearlyAndWritesNothing(@TempDir Path dir) throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        HybrisConfig.Builder builder = Hybris.builder()
                .metadataStore("zookeeper", Map.of("connect", "127.0.0.1:" + closedPort, "start-timeout", "2s"))
                .cloud("d1", "directory", Map.of("path", dir.resolve("d1").toString()))
                .cloud("d2", "directory", Map.of("path", dir.resolve("d2").toString()))
                .cloud("d3", "directory", Map.of("path", dir.resolve("d3").toString()));
        long t0 = System.nanoTime();
        assertThatThrownBy(builder::open)
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + closedPort);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void unknownZooKeeperOptionIsRejectedWithItsName() {
        assertThatThrownBy(() -> Hybris.builder()
                .metadataStore("zookeeper", Map.of("connect", "127.0.0.1:2181", "conect-timeout", "5s"))
                .cloud("d1", "memory", Map.of())
                .cloud("d2", "memory", Map.of())
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.rmds.zookeeper.conect-timeout")
                .hasMessageContaining("connect-timeout");
    }
}
