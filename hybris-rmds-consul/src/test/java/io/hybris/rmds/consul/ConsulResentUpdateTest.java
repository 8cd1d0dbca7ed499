/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.FreezableProxy;
import io.hybris.testkit.ResentUpdateContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ResentUpdateContract} on a Consul agent: a transaction whose answer is lost after Consul applied it is sent
 * again (by OkHttp on a failed connection, or by the store's retry); every send on the wire is counted. A re-sent
 * transaction whose answer shows a key check that passed knows no earlier send applied: its conflict is definite.
 */
class ConsulResentUpdateTest extends ResentUpdateContract {
    @RegisterExtension
    static final DevConsulAgent CONSUL = new DevConsulAgent();

    @Override
    protected String serverHost() {
        return CONSUL.address().split(":")[0];
    }

    @Override
    protected int serverPort() {
        return Integer.parseInt(CONSUL.address().split(":")[1]);
    }

    @Override
    protected String serverAddress() {
        return CONSUL.address();
    }

    @Override
    protected String newNamespace() {
        return CONSUL.uniquePrefix("resent-");
    }

    @Override
    protected MetadataStore open(String address, String namespace) {
        return ConsulMetadataStore.builder().address(address).keyPrefix(namespace)
                .operationTimeout(Duration.ofSeconds(20)).build();
    }

    /**
     * The first send of an atomic update of a and b is held by the proxy and lost with its connection (it never
     * reached Consul); meanwhile another store replaces b. The re-send fails on b's check only: a's passed, which
     * it could not have had an earlier send applied, so the conflict says nothing was written.
     */
    @Test
    void aReSentUpdateWhoseOtherKeyCheckPassedKnowsNothingWasApplied() throws Exception {
        String namespace = newNamespace();
        MetadataKey a = new MetadataKey("box", "a");
        MetadataKey b = new MetadataKey("box", "b");
        try (FreezableProxy proxy = new FreezableProxy(serverHost(), serverPort());
             MetadataStore proxied = open(proxy.address(), namespace);
             MetadataStore direct = open(serverAddress(), namespace)) {
            List<MetadataVersion> created = createBoth(proxied, a, b);
            MetadataVersion va = created.get(0);
            MetadataVersion vb = created.get(1);

            proxy.freeze();
            long before = proxy.bytesFromClients();
            CompletableFuture<Void> update = CompletableFuture.runAsync(() -> {
                try {
                    proxied.conditionalUpdateAll(List.of(new MetadataUpdate(a, bytes("tx"), va),
                            new MetadataUpdate(b, bytes("tx"), vb)));
                } catch (VersionConflictException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> proxy.bytesFromClients() > before);
            direct.conditionalUpdate(new MetadataUpdate(b, bytes("newer"), vb));
            proxy.dropConnections();
            proxy.thaw();

            Throwable thrown = update.handle((ok, e) -> e).get(60, TimeUnit.SECONDS);
            assertThat(thrown).hasCauseInstanceOf(VersionConflictException.class);
            VersionConflictException conflict = (VersionConflictException) thrown.getCause();
            assertThat(conflict.mayHaveApplied()).as(conflict.getMessage()).isFalse();
            assertThat(conflict).hasMessageContaining("nothing written");
            assertThat(text(direct, a)).isEqualTo("v0");
            assertThat(text(direct, b)).isEqualTo("newer");
        }
    }
}
