/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fixture of {@link MetadataStoreContract}: the store under test (one per test, from {@link #newStore()}), its
 * closing, and the helpers the contract's tests share. A store's own tests may extend it too.
 */
public abstract class MetadataStoreFixture {

    /** The store under test, fresh for each test. */
    protected MetadataStore store;

    /**
     * A new store over a fresh, empty namespace (for example a unique root path on a shared server). Called once
     * before each test.
     */
    protected abstract MetadataStore newStore();

    /** Releases a store made by {@link #newStore()}; by default closes it. */
    protected void closeStore(MetadataStore store) {
        store.close();
    }

    /** The longest a test waits for a watch to fire. */
    protected Duration watchTimeout() {
        return Duration.ofSeconds(10);
    }

    @BeforeEach
    void openStore() {
        store = newStore();
    }

    @AfterEach
    void releaseStore() {
        if (store != null) {
            closeStore(store);
            store = null;
        }
    }

    // ------------------------------------------------------------------ helpers

    /** A key in a container. */
    protected static MetadataKey key(String container, String key) {
        return new MetadataKey(container, key);
    }

    /** UTF-8 bytes of a string. */
    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The value of a read as UTF-8 text. */
    protected static String text(VersionedValue v) {
        return new String(v.value(), StandardCharsets.UTF_8);
    }

    /** Reads a key that must exist. */
    protected VersionedValue readExisting(MetadataKey k) {
        Optional<VersionedValue> v = store.read(k);
        assertThat(v).as("metadata of %s", k).isPresent();
        return v.get();
    }

    /** Creates a key with a value and returns its version. */
    protected MetadataVersion create(MetadataKey k, String value) throws VersionConflictException {
        store.conditionalUpdate(new MetadataUpdate(k, bytes(value), MetadataVersion.ABSENT));
        return readExisting(k).version();
    }

    /** Replaces an existing key's value at its current version and returns the new version. */
    protected MetadataVersion update(MetadataKey k, String value) throws VersionConflictException {
        store.conditionalUpdate(new MetadataUpdate(k, bytes(value), readExisting(k).version()));
        return readExisting(k).version();
    }

    /** Creates keys (value {@code "value of " + key}) in atomic updates as large as the store accepts, up to 100. */
    protected void createAll(String container, List<String> keys) throws VersionConflictException {
        int batchSize = Math.min(100, store.maxAtomicUpdates());
        for (int from = 0; from < keys.size(); from += batchSize) {
            List<MetadataUpdate> batch = keys.subList(from, Math.min(keys.size(), from + batchSize)).stream()
                    .map(k -> new MetadataUpdate(key(container, k), bytes("value of " + k), MetadataVersion.ABSENT))
                    .toList();
            store.conditionalUpdateAll(batch);
        }
    }

    /** The keys of a page, in order. */
    protected static List<String> keys(MetadataPage page) {
        return page.entries().stream().map(MetadataEntry::key).collect(Collectors.toList());
    }

    /** Keys sorted as a store lists them: by {@link KeyEncoding#encode(String)}. */
    protected static List<String> sortedByEncoding(List<String> keys) {
        return keys.stream().sorted(Comparator.comparing(KeyEncoding::encode)).toList();
    }

    /** Awaits a condition for up to {@link #watchTimeout()}, polling often. */
    protected ConditionFactory eventually() {
        return await().atMost(watchTimeout()).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
    }

    protected void assertUnchanged(MetadataKey k, String value, MetadataVersion version) {
        VersionedValue read = readExisting(k);
        assertThat(text(read)).as("value of %s", k).isEqualTo(value);
        assertThat(read.version()).as("version of %s", k).isEqualTo(version);
    }
}
