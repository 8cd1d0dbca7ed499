/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.HybrisConfigurationException;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code hybris.rmds.type=embedded-zookeeper}: starts an {@link EmbeddedZooKeeper} in this process and returns a
 * {@link ZooKeeperMetadataStore} connected to it; closing the store stops the server. The single-process default
 * setup: nothing to install, metadata persisted in {@code data-dir}.
 *
 * <pre>{@code
 * hybris.rmds.type=embedded-zookeeper
 * hybris.rmds.embedded-zookeeper.data-dir=/var/lib/myapp/hybris-metadata
 * }</pre>
 * Options: {@code data-dir} (required: snapshots and transaction log), {@code port} (default 0: a free port on
 * 127.0.0.1), and the client options of {@link ZooKeeperMetadataStore}: {@code root}, {@code read-mode},
 * {@code digest} (environment variable {@code HYBRIS_RMDS_EMBEDDED_ZOOKEEPER_DIGEST}), {@code session-timeout},
 * {@code connect-timeout}, {@code operation-timeout}, {@code request-timeout}, {@code start-timeout},
 * {@code max-response-size}, {@code max-request-size}, {@code changes-retention}. The store's
 * {@link MetadataStore#describe()} says "embedded ZooKeeper at 127.0.0.1:&lt;port&gt;". Only one process may use a
 * data directory at a time. Stateless and thread-safe.
 */
public final class EmbeddedZooKeeperMetadataStoreProvider implements MetadataStoreProvider {
    /** The {@code hybris.rmds.type} value of this provider. */
    public static final String TYPE = "embedded-zookeeper";

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public EmbeddedZooKeeperMetadataStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        Set<String> names = new TreeSet<>(ZooKeeperMetadataStoreProvider.CLIENT_OPTIONS);
        names.add("data-dir");
        names.add("port");
        return names;
    }

    @Override
    public MetadataStore create(ProviderOptions options) {
        Path dataDir = options.path("data-dir").orElseThrow(() -> new HybrisConfigurationException(
                options.qualified("data-dir") + " is required: the directory where the embedded ZooKeeper keeps"
                        + " the metadata"));
        int port = options.integer("port", 0);
        if (port < 0 || port > 65535) {
            throw new HybrisConfigurationException(options.qualified("port") + "=" + port
                    + " is not a port; use 0 for a free port or 1-65535");
        }
        ZooKeeperMetadataStoreProvider.checkClientOptions(options);
        EmbeddedZooKeeper server = EmbeddedZooKeeper.start(dataDir, port);
        try {
            return ZooKeeperMetadataStoreProvider.createOwning(options, server.connectString(),
                    "embedded ZooKeeper at " + server.connectString() + " (data in " + server.dataDir() + ")",
                    server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }
}
