package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.util.Set;

/**
 * {@code hybris.rmds.type=consul}: a {@link ConsulMetadataStore} on a Consul agent's KV store.
 *
 * <pre>{@code
 * hybris.rmds.type=consul
 * hybris.rmds.consul.address=127.0.0.1:8500
 * hybris.rmds.consul.key-prefix=hybris
 * # hybris.rmds.consul.token from the environment: HYBRIS_RMDS_CONSUL_TOKEN=<ACL token>
 * }</pre>
 * Options: {@code address} (required), {@code key-prefix}, {@code read-mode}, {@code token}, {@code datacenter},
 * {@code tls}, {@code tls-truststore}, {@code tls-truststore-password}, {@code connect-timeout},
 * {@code read-timeout}, {@code operation-timeout}, {@code start-timeout}, {@code watch-wait}; their meaning and
 * defaults are in {@link ConsulMetadataStore}. Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class ConsulMetadataStoreProvider implements MetadataStoreProvider {
    /** The {@code hybris.rmds.type} value of this provider. */
    public static final String TYPE = "consul";

    private static final Set<String> OPTIONS = Set.of("address", "key-prefix", "read-mode", "token", "datacenter",
            "tls", "tls-truststore", "tls-truststore-password", "connect-timeout", "read-timeout",
            "operation-timeout", "start-timeout", "watch-wait");

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public ConsulMetadataStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS;
    }

    @Override
    public MetadataStore create(ProviderOptions o) {
        ConsulMetadataStore.Builder b = ConsulMetadataStore.builder().keyNames(o::qualified);
        b.address(o.require("address"));
        o.get("key-prefix").ifPresent(b::keyPrefix);
        o.get("read-mode").ifPresent(v -> b.readMode(ConsulMetadataStore.ReadMode.fromOption(o.qualified("read-mode"), v)));
        o.get("token").ifPresent(b::token);
        o.get("datacenter").ifPresent(b::datacenter);
        b.tls(o.bool("tls", false));
        o.path("tls-truststore").ifPresent(b::tlsTruststore);
        o.get("tls-truststore-password").ifPresent(b::tlsTruststorePassword);
        o.get("connect-timeout").ifPresent(v -> b.connectTimeout(o.duration("connect-timeout", null)));
        o.get("read-timeout").ifPresent(v -> b.readTimeout(o.duration("read-timeout", null)));
        o.get("operation-timeout").ifPresent(v -> b.operationTimeout(o.duration("operation-timeout", null)));
        o.get("start-timeout").ifPresent(v -> b.startTimeout(o.duration("start-timeout", null)));
        o.get("watch-wait").ifPresent(v -> b.watchWait(o.duration("watch-wait", null)));
        return b.build();
    }
}
