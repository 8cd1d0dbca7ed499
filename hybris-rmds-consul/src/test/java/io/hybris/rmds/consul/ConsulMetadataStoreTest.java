/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.Hybris;
import io.hybris.HybrisConfigurationException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What is specific to Consul beyond the shared contract: the KV layout and binary values, ModifyIndex versions,
 * the 64-operation transaction limit, Consul's value size limit, watch cancellation and spurious wake-ups,
 * foreign keys, option validation and the provider. One dev agent for the class; a key prefix per test.
 */
class ConsulMetadataStoreTest {
    private static final String PREFIX = "hybris.rmds.consul.";
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();
    private static ConsulHttp raw;

    @BeforeAll
    static void connectRaw() {
        raw = new ConsulHttp(CONSUL.address());
    }

    // ------------------------------------------------------------------ layout

    @Test
    void metadataIsStoredAsRawBytesUnderPrefixContainerAndEncodedKey() throws Exception {
        String prefix = uniquePrefix();
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        MetadataKey k = new MetadataKey("photos", "a b/ü%.");
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).build()) {
            store.conditionalUpdate(new MetadataUpdate(k, everyByte, MetadataVersion.ABSENT));
            VersionedValue read = store.read(k).orElseThrow();

            // KeyEncoding's '%' is written '~': Consul rejects keys whose percent-decoded form has a space or '..'
            String consulKey = prefix + "/photos/" + KeyEncoding.encode(k.key()).replace('%', '~');
            assertThat(consulKey).endsWith("/photos/a~20b~2F~C3~BC~25.");
            assertThat(raw.rawValue(consulKey)).isEqualTo(everyByte);
            assertThat(read.value()).isEqualTo(everyByte);
            assertThat(read.version().value()).as("version = ModifyIndex").isEqualTo(raw.modifyIndex(consulKey));
        }
    }

    @Test
    void atomicUpdateStoresRawBytesAndModifyIndexesToo() throws Exception {
        String prefix = uniquePrefix();
        byte[] binary = {0, (byte) 0xff, (byte) 0xc3, 0x28, (byte) 0x80, 0x7f, 0x22, 0x5c};
        MetadataKey a = new MetadataKey("docs", "a");
        MetadataKey b = new MetadataKey("docs", "b");
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).build()) {
            store.conditionalUpdate(new MetadataUpdate(a, bytes("a1"), MetadataVersion.ABSENT));
            MetadataVersion va = store.read(a).orElseThrow().version();

            store.conditionalUpdateAll(List.of(new MetadataUpdate(a, binary, va),
                    new MetadataUpdate(b, new byte[0], MetadataVersion.ABSENT)));

            assertThat(raw.rawValue(prefix + "/docs/a")).isEqualTo(binary);
            assertThat(raw.rawValue(prefix + "/docs/b")).isEmpty();
            assertThat(store.read(a).orElseThrow().value()).isEqualTo(binary);
            assertThat(store.read(b).orElseThrow().value()).isEmpty();
            assertThat(store.read(a).orElseThrow().version().value()).isEqualTo(raw.modifyIndex(prefix + "/docs/a"))
                    .isEqualTo(raw.modifyIndex(prefix + "/docs/b"));
        }
    }

    @Test
    void aVersionNoEntryCanHaveIsAConflictNeverACreate() throws Exception {
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).build()) {
            MetadataKey existing = new MetadataKey("docs", "k");
            MetadataKey missing = new MetadataKey("docs", "missing");
            store.conditionalUpdate(new MetadataUpdate(existing, bytes("v"), MetadataVersion.ABSENT));
            for (long bogus : new long[] {0, -1}) {
                for (MetadataKey k : List.of(existing, missing)) {
                    assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(k, bytes("x"),
                            new MetadataVersion(bogus))))
                            .isInstanceOf(VersionConflictException.class);
                }
                assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                        new MetadataUpdate(new MetadataKey("docs", "other"), bytes("o"), MetadataVersion.ABSENT),
                        new MetadataUpdate(missing, bytes("x"), new MetadataVersion(bogus)))))
                        .isInstanceOf(VersionConflictException.class);
            }
            assertThat(text(store.read(existing).orElseThrow())).isEqualTo("v");
            assertThat(store.read(missing)).isEmpty();
            assertThat(store.list("docs", "", null, 10).entries()).hasSize(1);
        }
    }

    // ------------------------------------------------------------------ limits

    @Test
    void atomicUpdateOfMoreThan62KeysIsRejectedNamingTheLimitAndWritesNothing() throws Exception {
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).build()) {
            List<MetadataUpdate> tooMany = creates("big", 63);
            assertThatThrownBy(() -> store.conditionalUpdateAll(tooMany))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("63 keys")
                    .hasMessageContaining("limit of 64 operations per transaction")
                    .hasMessageContaining("2 of them record the commit in the change log")
                    .hasMessageContaining("nothing was written");
            assertThat(store.list("big", "", null, 100).entries()).isEmpty();

            store.conditionalUpdateAll(creates("big", 62));
            assertThat(store.list("big", "", null, 100).entries()).hasSize(62);
            assertThat(store.changes("big", 1, 10).changes()).singleElement()
                    .satisfies(c -> assertThat(c.updates()).hasSize(62));
        }
    }

    @Test
    void tputOfMoreThan62KeysIsRejectedBeforeUploading() {
        List<InMemoryCloudStore> clouds = List.of(new InMemoryCloudStore("m1"), new InMemoryCloudStore("m2"),
                new InMemoryCloudStore("m3"));
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).build();
             Hybris h = Hybris.open(Hybris.builder().f(1).metadataStore(store).cloud(clouds.get(0)).cloud(clouds.get(1))
                     .cloud(clouds.get(2)).deadline(Duration.ofSeconds(20)).build())) {
            Map<String, byte[]> values = new LinkedHashMap<>();
            IntStream.range(0, 63).forEach(i -> values.put("k" + i, bytes("v" + i)));

            assertThatThrownBy(() -> h.tput("box", values))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("63 keys exceeds the maximum of 62 per transaction");

            // rejected before anything was uploaded or written
            assertThat(h.list("box")).isEmpty();
            assertThat(clouds).allSatisfy(c -> assertThat(c.list("")).isEmpty());

            values.remove("k62");
            h.tput("box", values);
            assertThat(h.list("box")).hasSize(62);
        }
    }

    @Test
    void valueOverConsulsSizeLimitIsRejectedNamingTheLimit() throws Exception {
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).build()) {
            MetadataKey k = new MetadataKey("docs", "huge");
            assertThatThrownBy(() -> store.conditionalUpdate(new MetadataUpdate(k, new byte[600 * 1024],
                    MetadataVersion.ABSENT)))
                    .isExactlyInstanceOf(MetadataStoreException.class)
                    .hasMessageContaining("conditional update of docs/huge")
                    .hasMessageContaining("too large")
                    .hasMessageContaining("512 KiB");
            assertThatThrownBy(() -> store.conditionalUpdateAll(List.of(
                    new MetadataUpdate(k, new byte[300 * 1024], MetadataVersion.ABSENT),
                    new MetadataUpdate(new MetadataKey("docs", "huge-2"), new byte[300 * 1024],
                            MetadataVersion.ABSENT))))
                    .isExactlyInstanceOf(MetadataStoreException.class)
                    .hasMessageContaining("atomic update of 2 keys")
                    .hasMessageContaining("512 KiB");
            assertThat(store.list("docs", "", null, 10).entries()).isEmpty();

            // a transaction carries the value twice (the key and the change-log record), base64-encoded
            store.conditionalUpdate(new MetadataUpdate(k, new byte[150 * 1024], MetadataVersion.ABSENT));
            assertThat(store.read(k).orElseThrow().value()).hasSize(150 * 1024);
        }
    }

    // ------------------------------------------------------------------ watches

    @Test
    void cancelStopsTheBlockingQueriesAndTheCallbacks() throws Exception {
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).build()) {
            MetadataKey existing = new MetadataKey("docs", "existing");
            MetadataKey missing = new MetadataKey("docs", "missing");
            store.conditionalUpdate(new MetadataUpdate(existing, bytes("v1"), MetadataVersion.ABSENT));
            AtomicInteger fired = new AtomicInteger();
            WatchedRead onExisting = store.readAndWatch(existing, fired::incrementAndGet);
            WatchedRead onMissing = store.readAndWatch(missing, fired::incrementAndGet);
            assertThat(store.activeWatches()).isEqualTo(2);

            onExisting.subscription().cancel();
            onMissing.subscription().cancel();
            assertThat(store.activeWatches()).isZero();

            store.conditionalUpdate(new MetadataUpdate(existing, bytes("v2"), onExisting.current().orElseThrow().version()));
            store.conditionalUpdate(new MetadataUpdate(missing, bytes("m"), MetadataVersion.ABSENT));
            AtomicInteger signal = new AtomicInteger();
            WatchedRead later = store.readAndWatch(existing, signal::incrementAndGet);
            store.conditionalUpdate(new MetadataUpdate(existing, bytes("v3"), later.current().orElseThrow().version()));
            await().atMost(Duration.ofSeconds(10)).until(() -> signal.get() == 1);
            assertThat(fired).as("callbacks of cancelled watches").hasValue(0);
        }
    }

    @Test
    void closeCancelsWatchesWithoutFiringThem() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        MetadataKey k = new MetadataKey("docs", "k");
        String prefix = uniquePrefix();
        ConsulMetadataStore store = builder().keyPrefix(prefix).build();
        store.conditionalUpdate(new MetadataUpdate(k, bytes("v1"), MetadataVersion.ABSENT));
        store.readAndWatch(k, fired::incrementAndGet);
        store.readAndWatch(new MetadataKey("docs", "missing"), fired::incrementAndGet);

        store.close();

        assertThat(store.activeWatches()).isZero();
        assertThatThrownBy(() -> store.read(k)).isInstanceOf(MetadataStoreException.class).hasMessageContaining("closed");
        try (ConsulMetadataStore other = builder().keyPrefix(prefix).build()) {
            VersionedValue v = other.read(k).orElseThrow();
            AtomicInteger signal = new AtomicInteger();
            other.readAndWatch(k, signal::incrementAndGet);
            other.conditionalUpdate(new MetadataUpdate(k, bytes("v2"), v.version()));
            await().atMost(Duration.ofSeconds(10)).until(() -> signal.get() == 1);
        }
        assertThat(fired).hasValue(0);
    }

    @Test
    void watchFiresWhenTheKeyIsDeletedBehindTheStoresBack() throws Exception {
        String prefix = uniquePrefix();
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).build()) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v1"), MetadataVersion.ABSENT));
            AtomicInteger fired = new AtomicInteger();
            store.readAndWatch(k, fired::incrementAndGet);

            raw.delete(prefix + "/docs/k");

            await().atMost(Duration.ofSeconds(10)).until(() -> fired.get() == 1);
            assertThat(store.activeWatches()).isZero();
        }
    }

    @Test
    void aWatchOutlivesManyBlockingQueryWaitsAndStillFiresOnceOnTheChange() throws Exception {
        try (ConsulMetadataStore store = builder().keyPrefix(uniquePrefix()).watchWait(Duration.ofSeconds(1))
                .build()) {
            MetadataKey watched = new MetadataKey("docs", "watched");
            MetadataKey missing = new MetadataKey("docs", "missing");
            MetadataKey busy = new MetadataKey("docs", "busy");
            store.conditionalUpdate(new MetadataUpdate(watched, bytes("v1"), MetadataVersion.ABSENT));
            store.conditionalUpdate(new MetadataUpdate(busy, bytes("0"), MetadataVersion.ABSENT));
            AtomicInteger onWatched = new AtomicInteger();
            AtomicInteger onMissing = new AtomicInteger();
            store.readAndWatch(watched, onWatched::incrementAndGet);
            store.readAndWatch(missing, onMissing::incrementAndGet);

            // other writes move Consul's index (a missing key's blocking query wakes on them) and the 1 s waits
            // expire: neither is a change of the watched keys
            AtomicInteger writes = new AtomicInteger();
            await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10)).until(() -> {
                VersionedValue b = store.read(busy).orElseThrow();
                store.conditionalUpdate(new MetadataUpdate(busy, bytes(Integer.toString(writes.incrementAndGet())),
                        b.version()));
                return onWatched.get() == 0 && onMissing.get() == 0;
            });
            assertThat(store.activeWatches()).isEqualTo(2);

            store.conditionalUpdate(new MetadataUpdate(missing, bytes("now"), MetadataVersion.ABSENT));
            await().atMost(Duration.ofSeconds(10)).until(() -> onMissing.get() == 1);
            store.conditionalUpdate(new MetadataUpdate(watched, bytes("v2"), store.read(watched).orElseThrow().version()));
            await().atMost(Duration.ofSeconds(10)).until(() -> onWatched.get() == 1);
            assertThat(store.activeWatches()).isZero();
        }
    }

    // ------------------------------------------------------------------ change-log compaction

    /**
     * Clients that each commit once and close (a CLI invocation, a short job) still keep the log near its retention:
     * a commit compacts with probability 1 / interval whoever makes it, and closing lets that compaction finish.
     * Counting its own commits, no such client ever compacted and the log kept every record.
     */
    @Test
    void clientsThatEachCommitOnceAndCloseStillCompactTheLog() throws Exception {
        String prefix = uniquePrefix();
        int retention = 20; // a compaction on one commit in two, on average
        for (int i = 0; i < 60; i++) {
            try (ConsulMetadataStore store = builder().keyPrefix(prefix).changesRetention(retention).build()) {
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "k" + i), bytes("v"),
                        MetadataVersion.ABSENT));
            }
        }
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).changesRetention(retention).build()) {
            assertThat(store.latestChange("docs")).isEqualTo(60);
            long compactedThrough = store.changes("docs", 1, 1).compactedThrough();
            // a marker below 20 needs 20 draws in a row that did not compact: 1 in 10^6
            assertThat(compactedThrough).as("compacted through").isBetween(20L, 40L);
            for (long sequence = 1; sequence <= 60; sequence++) {
                String record = prefix + "/.changes/docs/log/" + String.format("%020d", sequence);
                boolean removed = sequence <= compactedThrough;
                assertThat(raw.rawValue(record)).as("record %d", sequence)
                        .matches(value -> (value == null) == removed);
            }
        }
    }

    /**
     * A compaction moves the marker first, then deletes the records it covers. A client killed (or closed, or whose
     * marker update's answer was lost and re-sent) between the two leaves records under the marker: the next
     * compaction, by any client, deletes them too, instead of starting after the marker and leaving them forever.
     */
    @Test
    void recordsLeftUnderTheMarkerByACompactionThatDidNotFinishAreDeletedByTheNextOne() throws Exception {
        String prefix = uniquePrefix();
        // retention 50,000: nothing to compact in a log of 40 commits
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).changesRetention(50_000).build()) {
            for (int i = 0; i < 40; i++) {
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "k" + i), bytes("v"),
                        MetadataVersion.ABSENT));
            }
        }
        // what a client with retention 10 leaves when it dies right after its compaction moved the marker
        raw.put(prefix + "/.changes/docs/compacted", bytes("30"));

        try (ConsulMetadataStore store = builder().keyPrefix(prefix).changesRetention(10).build()) {
            for (int i = 40; i < 45; i++) { // retention 10: every commit compacts
                store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "k" + i), bytes("v"),
                        MetadataVersion.ABSENT));
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(store.changes("docs", 1, 100).compactedThrough()).isEqualTo(35);
                for (long sequence = 1; sequence <= 45; sequence++) {
                    String record = prefix + "/.changes/docs/log/" + String.format("%020d", sequence);
                    boolean removed = sequence <= 35;
                    assertThat(raw.rawValue(record)).as("record %d", sequence)
                            .matches(value -> (value == null) == removed);
                }
            });
        }
    }

    // ------------------------------------------------------------------ foreign keys

    @Test
    void listAndContainersSkipKeysHybrisDidNotWrite() throws Exception {
        String prefix = uniquePrefix();
        try (ConsulMetadataStore store = builder().keyPrefix(prefix).build()) {
            store.conditionalUpdate(new MetadataUpdate(new MetadataKey("docs", "mine"), bytes("m"),
                    MetadataVersion.ABSENT));
            raw.put(prefix + "/docs/nested/deeper", bytes("foreign"));
            raw.put(prefix + "/docs/bad%41", bytes("foreign"));
            raw.put(prefix + "/docs/bad~zz", bytes("foreign"));
            raw.put(prefix + "/loose-key", bytes("foreign"));

            assertThat(store.list("docs", "", null, 100).entries()).extracting(e -> e.key()).containsExactly("mine");
            assertThat(store.containers()).containsExactly("docs");
        }
    }

    // ------------------------------------------------------------------ validation

    @ParameterizedTest
    @ValueSource(strings = {"/lead", "trail/", "a//b", "a/./b", "..", "sp ace", "ünï", "a?b"})
    void invalidKeyPrefixIsRejectedNamingTheOption(String keyPrefix) {
        assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(),
                "key-prefix", keyPrefix))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "key-prefix=" + keyPrefix)
                .hasMessageContaining("e.g. hybris");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8500", "localhost", "127.0.0.1:0", "127.0.0.1:99999", "::1:8500",
            "host:port"})
    void invalidAddressIsRejectedNamingTheOption(String address) {
        assertThatThrownBy(() -> provider().create(options(Map.of("address", address))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "address=" + address)
                .hasMessageContaining("host:port");
    }

    @Test
    void truststoreWithoutTlsIsAContradiction() {
        assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(),
                "trust-store", "/tmp/trust.p12"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "trust-store")
                .hasMessageContaining(PREFIX + "tls=true");
        // the deprecated name is still read, so the same contradiction is found
        assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(),
                "tls-truststore", "/tmp/trust.p12"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "trust-store")
                .hasMessageContaining(PREFIX + "tls=true");
    }

    @Test
    void aTrustStoreUnderBothItsNamesIsRejected() {
        assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(), "tls", "true",
                "trust-store", "/tmp/a.p12", "tls-truststore", "/tmp/b.p12"))))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(PREFIX + "trust-store and " + PREFIX + "tls-truststore are both set");
    }

    @Test
    void outOfRangeSettingsAreRejectedNamingTheOption() {
        for (Map.Entry<String, String> bad : Map.of("watch-wait", "11m", "operation-timeout", "0s",
                "read-timeout", "0ms", "datacenter", "dc 1", "tls", "maybe").entrySet()) {
            assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(),
                    bad.getKey(), bad.getValue()))))
                    .as(bad.getKey())
                    .isInstanceOf(HybrisConfigurationException.class)
                    .hasMessageContaining(PREFIX + bad.getKey());
        }
    }

    // ------------------------------------------------------------------ provider

    // the provider's lookup, missing address, unknown read mode and unreachable agent: in
    // ConsulConfiguredClientTest (ConfiguredClientContract)

    @Test
    void providerAppliesEveryOption() throws Exception {
        String prefix = "apps/" + uniquePrefix();
        Map<String, String> o = new HashMap<>(Map.of("address", CONSUL.address(), "key-prefix", prefix,
                "read-mode", "stale", "token", "ignored-without-acls", "datacenter", "dc1", "connect-timeout", "3s",
                "read-timeout", "4s", "operation-timeout", "5s", "start-timeout", "6s", "watch-wait", "30s"));
        o.put("tls", "false");
        try (MetadataStore store = provider().create(options(o))) {
            MetadataKey k = new MetadataKey("docs", "k");
            store.conditionalUpdate(new MetadataUpdate(k, bytes("v"), MetadataVersion.ABSENT));

            assertThat(store.describe()).isEqualTo("Consul at " + CONSUL.address() + " (datacenter dc1), key-prefix "
                    + prefix + ", read-mode stale");
            assertThat(raw.rawValue(prefix + "/docs/k")).isEqualTo(bytes("v"));
            assertThat(text(store.read(k).orElseThrow())).isEqualTo("v");
        }
    }

    @Test
    void unknownDatacenterFailsToStartNamingTheAddressAndDatacenter() {
        assertThatThrownBy(() -> provider().create(options(Map.of("address", CONSUL.address(),
                "datacenter", "nowhere", "start-timeout", "2s"))))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("Consul at " + CONSUL.address() + " (datacenter nowhere)")
                .hasMessageContaining(PREFIX + "datacenter");
    }

    // ------------------------------------------------------------------ helpers

    private static ConsulMetadataStore.Builder builder() {
        return ConsulMetadataStore.builder().address(CONSUL.address()).operationTimeout(Duration.ofSeconds(5));
    }

    private static String uniquePrefix() {
        return CONSUL.uniquePrefix("store-test-");
    }

    private static ConsulMetadataStoreProvider provider() {
        return new ConsulMetadataStoreProvider();
    }

    private static ProviderOptions options(Map<String, String> values) {
        return new ProviderOptions(PREFIX, values);
    }

    private static List<MetadataUpdate> creates(String container, int n) {
        List<MetadataUpdate> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new MetadataUpdate(new MetadataKey(container, "k" + i), bytes("v" + i), MetadataVersion.ABSENT));
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(VersionedValue v) {
        return new String(v.value(), StandardCharsets.UTF_8);
    }
}
