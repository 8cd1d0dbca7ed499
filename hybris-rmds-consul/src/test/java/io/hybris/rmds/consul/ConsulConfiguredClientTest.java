package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A client configured entirely from properties, with Consul selected by configuration only. */
class ConsulConfiguredClientTest {

    @Test
    void propertiesFileSelectsConsulAndDirectoryClouds(@TempDir Path dir) throws Exception {
        try (ConsulTestAgent agent = ConsulTestAgent.dev()) {
            Path file = dir.resolve("hybris.properties");
            Files.writeString(file, String.join("\n",
                    "hybris.f=1",
                    "hybris.client-id=props-client",
                    "hybris.rmds.type=consul",
                    "hybris.rmds.consul.key-prefix=from-properties",
                    "hybris.rmds.consul.read-mode=consistent",
                    "hybris.cloud.d1.type=directory",
                    "hybris.cloud.d1.path=" + dir.resolve("d1"),
                    "hybris.cloud.d2.type=directory",
                    "hybris.cloud.d2.path=" + dir.resolve("d2"),
                    "hybris.cloud.d3.type=directory",
                    "hybris.cloud.d3.path=" + dir.resolve("d3"),
                    "other.application.key=ignored"), StandardCharsets.UTF_8);
            // the address comes from the environment, as a deployment-specific setting would
            HybrisConfig config = HybrisConfig.fromProperties(file,
                    Map.of("HYBRIS_RMDS_CONSUL_ADDRESS", agent.address()));
            try (Hybris h = Hybris.open(config)) {
                h.put("docs", "readme", "hello".getBytes(StandardCharsets.UTF_8));
                assertThat(h.get("docs", "readme")).hasValueSatisfying(
                        v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("hello"));
                assertThat(h.describe("docs", "readme").orElseThrow().clientId()).isEqualTo("props-client");
                assertThat(h.list("docs")).containsExactly("readme");
            }
            // the metadata is where the options put it: <key-prefix>/<container>/<encoded key> on that agent
            try (ConsulMetadataStore raw = ConsulMetadataStore.builder().address(agent.address())
                    .keyPrefix("from-properties").build()) {
                assertThat(raw.read(new MetadataKey("docs", "readme"))).isPresent();
                assertThat(raw.containers()).containsExactly("docs");
            }
            try (Stream<Path> files = Files.walk(dir.resolve("d1"))) {
                assertThat(files.filter(Files::isRegularFile).map(Path::toString))
                        .anyMatch(p -> p.contains("readme#1_props-client."));
            }
        }
    }

    @Test
    void unreachableConsulFailsOpenClearlyAndWritesNothing(@TempDir Path dir) throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        HybrisConfig.Builder builder = Hybris.builder()
                .metadataStore("consul", Map.of("address", "127.0.0.1:" + closedPort, "start-timeout", "2s"))
                .cloud("d1", "directory", Map.of("path", dir.resolve("d1").toString()))
                .cloud("d2", "directory", Map.of("path", dir.resolve("d2").toString()))
                .cloud("d3", "directory", Map.of("path", dir.resolve("d3").toString()));
        long t0 = System.nanoTime();
        assertThatThrownBy(builder::open)
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + closedPort)
                .hasMessageContaining("hybris.rmds.consul.start-timeout");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void unknownConsulOptionIsRejectedWithItsName() {
        assertThatThrownBy(() -> Hybris.builder()
                .metadataStore("consul", Map.of("address", "127.0.0.1:8500", "conect-timeout", "5s"))
                .cloud("d1", "memory", Map.of())
                .cloud("d2", "memory", Map.of())
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.rmds.consul.conect-timeout")
                .hasMessageContaining("connect-timeout");
    }

    @Test
    void missingAddressIsRejectedNamingTheProperty(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hybris.properties");
        Files.writeString(file, String.join("\n",
                "hybris.rmds.type=consul",
                "hybris.cloud.m1.type=memory",
                "hybris.cloud.m2.type=memory"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Hybris.open(HybrisConfig.fromProperties(file, Map.of())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.rmds.consul.address");
    }
}
