package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.util.Set;
import java.util.TreeSet;

/**
 * {@code hybris.rmds.type=zookeeper}: a {@link ZooKeeperMetadataStore} on an existing ZooKeeper ensemble.
 *
 * <pre>{@code
 * hybris.rmds.type=zookeeper
 * hybris.rmds.zookeeper.connect=zk1:2181,zk2:2181,zk3:2181
 * hybris.rmds.zookeeper.root=/hybris
 * # hybris.rmds.zookeeper.digest from the environment: HYBRIS_RMDS_ZOOKEEPER_DIGEST=user:password
 * }</pre>
 * Options: {@code connect} (required), {@code root}, {@code read-mode}, {@code session-timeout},
 * {@code connection-timeout}, {@code operation-timeout}, {@code start-timeout}, {@code digest}; their meaning and
 * defaults are in {@link ZooKeeperMetadataStore}. Found by {@link java.util.ServiceLoader}; stateless and
 * thread-safe.
 */
public final class ZooKeeperMetadataStoreProvider implements MetadataStoreProvider {
    /** The {@code hybris.rmds.type} value of this provider. */
    public static final String TYPE = "zookeeper";

    /**
     * The client options (all but {@code connect}), also taken by a provider that starts its own server: the
     * embedded ZooKeeper (module {@code hybris-rmds-zookeeper-embedded}).
     */
    public static final Set<String> CLIENT_OPTIONS = Set.of("root", "read-mode", "session-timeout",
            "connection-timeout", "operation-timeout", "start-timeout", "digest");

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public ZooKeeperMetadataStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        Set<String> names = new TreeSet<>(CLIENT_OPTIONS);
        names.add("connect");
        return names;
    }

    @Override
    public MetadataStore create(ProviderOptions options) {
        return configure(ZooKeeperMetadataStore.builder(), options)
                .connect(options.require("connect"))
                .build();
    }

    /**
     * Checks the {@link #CLIENT_OPTIONS} in {@code options} without connecting; messages name the full property
     * keys. For a provider that starts its own server (the embedded ZooKeeper): a bad option then starts nothing.
     *
     * @throws io.hybris.HybrisConfigurationException naming the option that is invalid
     */
    public static void checkClientOptions(ProviderOptions options) {
        configure(ZooKeeperMetadataStore.builder(), options).validate();
    }

    /**
     * A store configured from the {@link #CLIENT_OPTIONS} in {@code options}, connected to a server that the
     * store owns: {@link MetadataStore#describe()} starts with {@code description} instead of "ZooKeeper at
     * &lt;connect&gt;", and closing the store closes {@code server} after the store's client. For a provider
     * that starts its own server (the embedded ZooKeeper). If this throws, {@code server} is not closed: the
     * caller still owns it.
     */
    public static MetadataStore createOwning(ProviderOptions options, String connect, String description,
                                             AutoCloseable server) {
        return configure(ZooKeeperMetadataStore.builder(), options)
                .connect(connect)
                .description(description)
                .owning(server)
                .build();
    }

    /** Applies the client options to a builder; messages will name the full property keys. */
    static ZooKeeperMetadataStore.Builder configure(ZooKeeperMetadataStore.Builder b, ProviderOptions o) {
        b.keyNames(o::qualified);
        o.get("root").ifPresent(b::root);
        o.get("read-mode").ifPresent(v ->
                b.readMode(ZooKeeperMetadataStore.ReadMode.fromOption(o.qualified("read-mode"), v)));
        o.get("session-timeout").ifPresent(v -> b.sessionTimeout(o.duration("session-timeout", null)));
        o.get("connection-timeout").ifPresent(v -> b.connectionTimeout(o.duration("connection-timeout", null)));
        o.get("operation-timeout").ifPresent(v -> b.operationTimeout(o.duration("operation-timeout", null)));
        o.get("start-timeout").ifPresent(v -> b.startTimeout(o.duration("start-timeout", null)));
        o.get("digest").ifPresent(b::digest);
        return b;
    }
}
