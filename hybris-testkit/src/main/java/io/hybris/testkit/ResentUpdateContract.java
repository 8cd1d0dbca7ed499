/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a networked {@link MetadataStore} that re-sends a conditional update after a lost answer must say about the
 * conflict the re-sent request may then meet, as an abstract JUnit Jupiter suite. The answer is lost for real: a
 * {@link FreezableProxy} in front of the server holds its answers while it applies the update, then drops the
 * connection ({@link FreezableProxy#loseAnswer}); meanwhile another store replaces every key, so the re-read cannot
 * find the update's own value either. Such a conflict must say that the earlier send may have applied
 * ({@link VersionConflictException#mayHaveApplied()}), and the conflict of an update sent once that it did not.
 * Hybris relies on it to never report a landed write as failed. A subclass names the server and opens stores.
 */
public abstract class ResentUpdateContract {
    /** The server's host and port, for the proxy in front of it. */
    protected abstract String serverHost();

    /** See {@link #serverHost()}. */
    protected abstract int serverPort();

    /** The server's own address ({@code host:port}). */
    protected abstract String serverAddress();

    /** A namespace (root, key prefix) no other test uses. */
    protected abstract String newNamespace();

    /**
     * A store reaching the server at {@code address} ({@code host:port}, the proxy's or the server's) in
     * {@code namespace}: stores opened with the same namespace share their keys.
     */
    protected abstract MetadataStore open(String address, String namespace) throws Exception;

    /** {@code s} in UTF-8. */
    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The value of {@code key} in {@code store} as UTF-8 text, or null if it has none. */
    protected static String text(MetadataStore store, MetadataKey key) {
        return store.read(key).map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
    }

    /**
     * Creates {@code a} and {@code b} with the value "v0" in one atomic update through {@code store}, which so knows
     * their container (its change log, its head): its next request is the update under test. Returns their versions.
     */
    protected static List<MetadataVersion> createBoth(MetadataStore store, MetadataKey a, MetadataKey b)
            throws VersionConflictException {
        store.conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("v0"), MetadataVersion.ABSENT),
                new MetadataUpdate(b, bytes("v0"), MetadataVersion.ABSENT)));
        return List.of(store.read(a).orElseThrow().version(), store.read(b).orElseThrow().version());
    }

    @Test
    void aConflictFoundByAReSentUpdateSaysTheEarlierSendMayHaveApplied() throws Exception {
        String namespace = newNamespace();
        MetadataKey a = new MetadataKey("box", "a");
        MetadataKey b = new MetadataKey("box", "b");
        try (FreezableProxy proxy = new FreezableProxy(serverHost(), serverPort());
             MetadataStore proxied = open(proxy.address(), namespace);
             MetadataStore direct = open(serverAddress(), namespace)) {
            List<MetadataVersion> created = createBoth(proxied, a, b);
            MetadataVersion va = created.get(0);
            MetadataVersion vb = created.get(1);

            proxy.freezeAnswers();
            Throwable thrown = proxy.loseAnswer(() -> {
                proxied.conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("tx"), va),
                        new MetadataUpdate(b, bytes("tx"), vb)));
                return null;
            }, () -> "tx".equals(text(direct, a)), () -> {
                try {
                    direct.conditionalUpdateAll(List.of(
                            new MetadataUpdate(a, bytes("newer"), direct.read(a).orElseThrow().version()),
                            new MetadataUpdate(b, bytes("newer"), direct.read(b).orElseThrow().version())));
                } catch (VersionConflictException e) {
                    throw new AssertionError(e);
                }
            });

            assertThat(thrown).isInstanceOf(VersionConflictException.class)
                    .hasMessageContaining("re-sent after a lost answer");
            assertThat(((VersionConflictException) thrown).mayHaveApplied()).isTrue();
            assertThat(text(direct, a)).isEqualTo("newer");
            assertThat(text(direct, b)).isEqualTo("newer");
        }
    }

    @Test
    void aConflictOfAnUpdateSentOnceSaysNothingWasApplied() throws Exception {
        MetadataKey a = new MetadataKey("box", "a");
        try (MetadataStore store = open(serverAddress(), newNamespace())) {
            store.conditionalUpdate(new MetadataUpdate(a, bytes("v0"), MetadataVersion.ABSENT));
            MetadataVersion v0 = store.read(a).orElseThrow().version();
            store.conditionalUpdate(new MetadataUpdate(a, bytes("v1"), v0));

            VersionConflictException conflict = assertThrows(VersionConflictException.class,
                    () -> store.conditionalUpdate(new MetadataUpdate(a, bytes("stale"), v0)));

            assertThat(conflict.mayHaveApplied()).isFalse();
            assertThat(text(store, a)).isEqualTo("v1");
        }
    }
}
