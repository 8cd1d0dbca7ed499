/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A metadata store as a user meets it through configuration only, as an abstract JUnit Jupiter suite: its provider
 * is found by {@link ServiceLoader} under {@code hybris.rmds.type}, a properties file (with the address from the
 * environment) opens a working client, a credential set in the environment reaches the server, an unreachable
 * server fails {@code open} clearly and fast without writing anything, and misspelt, missing or invalid options
 * are rejected naming the full property key.
 *
 * <p>A store supplies its names and a server through hooks:
 * <pre>{@code
 * class MyStoreConfiguredClientTest extends ConfiguredClientContract {
 *     private MyTestServer server;
 *
 *     protected StoreOptions storeOptions() {
 *         return new StoreOptions("mystore", "MyStore", "address", "connect-timeout", "password", // type, name
 *                 List.of("linearizable", "serializable"),      // in messages, address, timeout and credential
 *                 Set.of("address", "prefix", "read-mode", "connect-timeout", "start-timeout", "password"), // options,
 *                 MyStoreProvider.class);                       // read modes, all options, provider
 *     }
 *     protected String startServer() { server = MyTestServer.start(); return server.address(); }
 *     protected String startServerRequiringCredential() { server = MyTestServer.startWithAuth("pw"); ... }
 *     protected void closeServer() { server.close(); }
 *     protected String credential() { return "pw"; }
 *     protected void assertWrittenWithCredential(String address, MetadataKey key) {
 *         // read the key raw with and without the credential
 *     }
 *     protected Map<String, String> namespaceOptions() { return Map.of("prefix", "from-properties"); }
 *     protected void assertStoredWhereConfigured(String address, MetadataKey key) {
 *         // open the store directly on the namespaceOptions() namespace and find the key there
 *     }
 * }
 * }</pre>
 *
 * <p>Every store must accept {@code start-timeout} (how long opening waits for the server) and {@code read-mode}.
 * Only the properties-file and credential tests start a server; the other tests need none.
 */
public abstract class ConfiguredClientContract {

    /**
     * What the suite needs to know of a store's configuration.
     *
     * @param type                 the {@code hybris.rmds.type} value, e.g. {@code "zookeeper"}
     * @param serverName           the server's name as the store's messages write it, e.g. {@code "ZooKeeper"}
     * @param addressOption        the option naming the server's {@code host:port}, e.g. {@code "connect"}
     * @param connectTimeoutOption the connect-timeout option, which a misspelling close to it must suggest
     * @param credentialOption     the option holding what the store authenticates with, e.g. {@code "token"}
     * @param readModes            every value {@code read-mode} accepts
     * @param optionNames          exactly the option names the provider accepts
     * @param providerClass        the provider class {@link ServiceLoader} must find for {@code type}
     */
    public record StoreOptions(String type, String serverName, String addressOption, String connectTimeoutOption,
                               String credentialOption, List<String> readModes, Set<String> optionNames,
                               Class<? extends MetadataStoreProvider> providerClass) {
        /** Copies the collections. */
        public StoreOptions {
            readModes = List.copyOf(readModes);
            optionNames = Set.copyOf(optionNames);
        }
    }

    /** The store's names and options. */
    protected abstract StoreOptions storeOptions();

    /** Starts a server for one test and returns its {@code host:port}. */
    protected abstract String startServer() throws Exception;

    /**
     * Starts a server for one test on which a store without {@link #credential()} could not do (or hide) what the
     * store does with it (e.g. ACLs that deny everything else), and returns its {@code host:port}.
     */
    protected abstract String startServerRequiringCredential() throws Exception;

    /** Stops the server {@link #startServer()} or {@link #startServerRequiringCredential()} started. */
    protected abstract void closeServer() throws Exception;

    /** A credential that the server started by {@link #startServerRequiringCredential()} accepts. */
    protected abstract String credential();

    /**
     * Asserts, on the server at {@code address}, that {@code key} (in the {@link #namespaceOptions()} namespace)
     * was written with {@link #credential()}: readable with it only, or only by it.
     */
    protected abstract void assertWrittenWithCredential(String address, MetadataKey key) throws Exception;

    /**
     * Options of the properties-file test besides the address: at least one that chooses where the metadata lives
     * (a root, a key prefix) other than the default, so that {@link #assertStoredWhereConfigured} can check it.
     */
    protected abstract Map<String, String> namespaceOptions();

    /**
     * Asserts, by opening the store directly on the server at {@code address} with {@link #namespaceOptions()},
     * that {@code key} (written by a client configured from properties) is there and that its container is the
     * only one.
     */
    protected abstract void assertStoredWhereConfigured(String address, MetadataKey key) throws Exception;

    /** The full property key of one of the store's options, e.g. {@code hybris.rmds.zookeeper.root}. */
    protected final String property(String option) {
        return "hybris.rmds." + type() + "." + option;
    }

    /** The environment variable that overrides {@code option}, e.g. {@code HYBRIS_RMDS_ZOOKEEPER_CONNECT}. */
    protected final String environmentVariable(String option) {
        return property(option).toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The store's provider, found by {@link ServiceLoader} under the store's type. */
    protected final MetadataStoreProvider provider() {
        return providersOfType().stream().findFirst()
                .orElseThrow(() -> new AssertionError("no MetadataStoreProvider of type " + type()));
    }

    // ------------------------------------------------------------------ configured client

    @Test
    void propertiesFileSelectsTheStoreAndDirectoryClouds(@TempDir Path dir) throws Exception {
        String address = startServer();
        try {
            List<String> lines = new ArrayList<>(List.of(
                    "hybris.f=1",
                    "hybris.client-id=props-client",
                    "hybris.rmds.type=" + type()));
            namespaceOptions().forEach((option, value) -> lines.add(property(option) + "=" + value));
            for (String cloud : List.of("d1", "d2", "d3")) {
                lines.add("hybris.cloud." + cloud + ".type=directory");
                lines.add("hybris.cloud." + cloud + ".path=" + dir.resolve(cloud));
            }
            lines.add("other.application.key=ignored");
            Path file = dir.resolve("hybris.properties");
            Files.writeString(file, String.join("\n", lines), StandardCharsets.UTF_8);
            // the address comes from the environment, as a deployment-specific or secret-bearing setting would
            HybrisConfig config = HybrisConfig.fromProperties(file,
                    Map.of(environmentVariable(addressOption()), address));
            try (Hybris h = Hybris.open(config)) {
                h.put("docs", "readme", "hello".getBytes(StandardCharsets.UTF_8));
                assertThat(h.get("docs", "readme")).hasValueSatisfying(
                        v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("hello"));
                assertThat(h.describe("docs", "readme").orElseThrow().clientId()).isEqualTo("props-client");
                assertThat(h.list("docs")).containsExactly("readme");
            }
            // the metadata is where the options put it
            assertStoredWhereConfigured(address, new MetadataKey("docs", "readme"));
            try (Stream<Path> files = Files.walk(dir.resolve("d1"))) {
                assertThat(files.filter(Files::isRegularFile).map(Path::toString))
                        .anyMatch(p -> p.contains("readme#1_props-client."))
                        .as("written under the default prefix").allMatch(p -> p.contains("hybris"));
            }
        } finally {
            closeServer();
        }
    }

    @Test
    void unreachableServerFailsOpenClearlyAndWritesNothing(@TempDir Path dir) {
        String address = "127.0.0.1:" + closedPort();
        HybrisConfig.Builder builder = Hybris.builder()
                .metadataStore(type(), Map.of(addressOption(), address, "start-timeout", "2s"))
                .cloud("d1", "directory", Map.of("path", dir.resolve("d1").toString()))
                .cloud("d2", "directory", Map.of("path", dir.resolve("d2").toString()))
                .cloud("d3", "directory", Map.of("path", dir.resolve("d3").toString()));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> Hybris.open(builder.build()))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining(address)
                .hasMessageContaining(property("start-timeout"));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void unknownOptionIsRejectedWithItsNameAndTheLikelyOne() {
        assertThatThrownBy(() -> Hybris.builder()
                .metadataStore(type(), Map.of(addressOption(), "127.0.0.1:" + closedPort(),
                        "conect-timeout", "5s"))
                .cloud("d1", "memory", Map.of())
                .cloud("d2", "memory", Map.of())
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(property("conect-timeout"))
                .hasMessageContaining(storeOptions().connectTimeoutOption());
    }

    @Test
    void missingAddressIsRejectedNamingTheProperty(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("hybris.properties");
        Files.writeString(file, String.join("\n",
                "hybris.rmds.type=" + type(),
                "hybris.cloud.m1.type=memory",
                "hybris.cloud.m2.type=memory"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Hybris.open(HybrisConfig.fromProperties(file, Map.of())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(property(addressOption()));
    }

    @Test
    void credentialComesFromTheEnvironmentThroughTheConfiguration() throws Exception {
        String address = startServerRequiringCredential();
        try {
            String credentialOption = storeOptions().credentialOption();
            Map<String, String> properties = new HashMap<>();
            properties.put("hybris.rmds.type", type());
            properties.put(property(addressOption()), address);
            namespaceOptions().forEach((option, value) -> properties.put(property(option), value));
            for (String cloud : List.of("m1", "m2", "m3")) {
                properties.put("hybris.cloud." + cloud + ".type", "memory");
            }
            HybrisConfig config = HybrisConfig.fromMap(properties,
                    Map.of(environmentVariable(credentialOption), credential()));
            assertThat(config.metadataOptions()).containsEntry(credentialOption, credential());

            MetadataKey key = new MetadataKey("docs", "k");
            try (MetadataStore store = provider().create(options(config.metadataOptions()))) {
                store.conditionalUpdate(new MetadataUpdate(key, "v".getBytes(StandardCharsets.UTF_8),
                        MetadataVersion.ABSENT));
                assertWrittenWithCredential(address, key);
            }
        } finally {
            closeServer();
        }
    }

    // ------------------------------------------------------------------ the provider

    @Test
    void providerIsFoundByServiceLoaderWithItsOptions() {
        List<MetadataStoreProvider> found = providersOfType();

        assertThat(found).hasSize(1);
        assertThat(found.get(0)).isInstanceOf(storeOptions().providerClass());
        assertThat(found.get(0).optionNames()).containsExactlyInAnyOrderElementsOf(storeOptions().optionNames());
    }

    @Test
    void unreachableServerFailsAtStartNamingTheAddressAndTimeout() {
        String address = "127.0.0.1:" + closedPort();
        long t0 = System.nanoTime();

        assertThatThrownBy(() -> provider().create(options(Map.of(addressOption(), address,
                "start-timeout", "2s"))))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("cannot reach " + storeOptions().serverName() + " at " + address)
                .hasMessageContaining("within 2s")
                .hasMessageContaining(property("start-timeout"))
                .hasMessageContaining(property(addressOption()));

        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertThat(tookMs).isBetween(1_500L, 8_000L);
    }

    @Test
    void missingAddressIsRejectedByTheProviderNamingTheOption() {
        assertThatThrownBy(() -> provider().create(options(Map.of())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(property(addressOption()));
    }

    @Test
    void unknownReadModeIsRejectedListingTheModes() {
        assertThatThrownBy(() -> provider().create(options(Map.of(addressOption(), "127.0.0.1:" + closedPort(),
                "read-mode", "eventual"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(property("read-mode") + "=eventual")
                .satisfies(e -> assertThat(e.getMessage()).contains(storeOptions().readModes()));
    }

    // ------------------------------------------------------------------ helpers

    private String type() {
        return storeOptions().type();
    }

    private String addressOption() {
        return storeOptions().addressOption();
    }

    private ProviderOptions options(Map<String, String> values) {
        return new ProviderOptions("hybris.rmds." + type() + ".", new HashMap<>(values));
    }

    private List<MetadataStoreProvider> providersOfType() {
        List<MetadataStoreProvider> found = new ArrayList<>();
        ServiceLoader.load(MetadataStoreProvider.class).forEach(p -> {
            if (p.type().equals(type())) {
                found.add(p);
            }
        });
        return found;
    }

    /** A loopback port that nothing listens on (bound, then released). */
    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
