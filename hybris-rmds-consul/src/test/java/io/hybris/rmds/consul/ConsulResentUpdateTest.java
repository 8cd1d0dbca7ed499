/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.FreezableProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A transaction whose answer is lost after Consul applied it is sent again (by OkHttp on a failed connection, or by
 * the store's retry) and then conflicts with its own earlier send. The store must say that the earlier send may have
 * applied ({@link VersionConflictException#mayHaveApplied()}): with newer writes on every key in between, Hybris
 * cannot find its own timestamp and would otherwise report a landed write as failed. The answer is lost for real: a
 * proxy holds the agent's answers while the transaction is applied, then drops the connection
 * ({@link FreezableProxy#loseAnswer}).
 */
class ConsulResentUpdateTest {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(ConsulMetadataStore store, MetadataKey key) {
        return store.read(key).map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
    }

    @Test
    void aConflictFoundByAReSentTransactionSaysTheEarlierSendMayHaveApplied() throws Exception {
        String prefix = CONSUL.uniquePrefix("resent-");
        String[] hostPort = CONSUL.address().split(":");
        MetadataKey a = new MetadataKey("box", "a");
        MetadataKey b = new MetadataKey("box", "b");
        try (FreezableProxy proxy = new FreezableProxy(hostPort[0], Integer.parseInt(hostPort[1]));
             ConsulMetadataStore proxied = ConsulMetadataStore.builder().address(proxy.address()).keyPrefix(prefix)
                     .operationTimeout(Duration.ofSeconds(20)).build();
             ConsulMetadataStore direct = ConsulMetadataStore.builder().address(CONSUL.address()).keyPrefix(prefix)
                     .build()) {
            // created through the proxied store, which so knows the container's change-log head: the update below
            // is its next request
            proxied.conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("v0"), MetadataVersion.ABSENT),
                    new MetadataUpdate(b, bytes("v0"), MetadataVersion.ABSENT)));
            MetadataVersion va = proxied.read(a).orElseThrow().version();
            MetadataVersion vb = proxied.read(b).orElseThrow().version();

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
    void aConflictOfATransactionSentOnceSaysNothingWasApplied() throws Exception {
        MetadataKey a = new MetadataKey("box", "a");
        try (ConsulMetadataStore store = ConsulMetadataStore.builder().address(CONSUL.address())
                .keyPrefix(CONSUL.uniquePrefix("resent-")).build()) {
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
