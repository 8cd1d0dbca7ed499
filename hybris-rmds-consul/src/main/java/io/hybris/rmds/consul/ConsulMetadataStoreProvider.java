/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;

import java.nio.file.Path;
import java.time.Duration;
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
 * The options, their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/consul.md} is made from
 * it). Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class ConsulMetadataStoreProvider implements MetadataStoreProvider {
    /** The {@code hybris.rmds.type} value of this provider. */
    public static final String TYPE = "consul";

    static final Option<String> ADDRESS = Option.string("address", null, "`host:port` of the agent's HTTP(S) API,"
            + " e.g. `127.0.0.1:8500` (no scheme: see `tls`)").required();
    static final Option<String> KEY_PREFIX = Option.string("key-prefix", "hybris", "KV path for all metadata:"
            + " segments of `[A-Za-z0-9._-]` separated by `/`, no leading or trailing slash");
    static final Option<ConsulMetadataStore.ReadMode> READ_MODE = Option.of("read-mode",
            ConsulMetadataStore.ReadMode::fromOption, ConsulMetadataStore.ReadMode.CONSISTENT, "see below");
    static final Option<String> TOKEN = Option.string("token", null, "ACL token, sent as `X-Consul-Token`; a"
            + " secret: set `HYBRIS_RMDS_CONSUL_TOKEN`. Needs `key` read and write on `<key-prefix>/`");
    static final Option<String> DATACENTER = Option.string("datacenter", null,
            "the datacenter to address (`?dc=`)").defaultText("the agent's");
    static final Option<Boolean> TLS = Option.bool("tls", false, "HTTPS to `address` (the agent's `https` port);"
            + " the server certificate and host name are verified");
    static final Option<Path> TRUST_STORE = StandardOptions.TRUST_STORE.doc("PKCS#12 or JKS file with the CA"
            + " certificate(s) to trust; needs `tls=true`").deprecatedAlias("tls-truststore");
    static final Option<String> TRUST_STORE_PASSWORD = StandardOptions.TRUST_STORE_PASSWORD.doc("its password; a"
            + " secret: `HYBRIS_RMDS_CONSUL_TRUST_STORE_PASSWORD`").deprecatedAlias("tls-truststore-password");
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT.doc("TCP/TLS connect timeout"
            + " of one request, and how long sending one request may stall");
    static final Option<Duration> READ_TIMEOUT = Option.duration("read-timeout", Duration.ofSeconds(8), "how long"
            + " one request waits for its answer (a server holds a request up to 7 s while a leader is elected)")
            .positive();
    static final Option<Duration> OPERATION_TIMEOUT = Option.duration("operation-timeout", Duration.ofSeconds(10),
            "how long a call retries transient failures (connection refused/reset, timeouts, HTTP 5xx such as"
                    + " \"No cluster leader\", 429) before `MetadataUnavailableException`").positive();
    static final Option<Duration> START_TIMEOUT = Option.duration("start-timeout", Duration.ofSeconds(15), "how"
            + " long opening waits for the agent to answer `/v1/status/leader` with a leader").positive();
    static final Option<Duration> WATCH_WAIT = Option.duration("watch-wait", Duration.ofMinutes(5), "`wait` of one"
            + " blocking query of a watch, 1 s to 10 min (Consul's cap)")
            .between(Duration.ofSeconds(1), Duration.ofMinutes(10),
                    " (Consul caps a blocking query's wait at 10 minutes)");

    /** Every option of this provider, in the order of its documentation. */
    static final Option<Integer> CHANGES_RETENTION = StandardOptions.CHANGES_RETENTION.between(1, 10_000_000, "");

    public static final OptionSet OPTIONS = OptionSet.of(ADDRESS, KEY_PREFIX, READ_MODE, TOKEN, DATACENTER, TLS,
            TRUST_STORE, TRUST_STORE_PASSWORD, CONNECT_TIMEOUT, READ_TIMEOUT, OPERATION_TIMEOUT, START_TIMEOUT,
            WATCH_WAIT, CHANGES_RETENTION);

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public ConsulMetadataStoreProvider() {
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionNames() {
        return OPTIONS.names();
    }

    @Override
    public MetadataStore create(ProviderOptions o) {
        ConsulMetadataStore.Builder b = ConsulMetadataStore.builder().keyNames(o::qualified);
        b.address(ADDRESS.get(o));
        KEY_PREFIX.find(o).ifPresent(b::keyPrefix);
        READ_MODE.find(o).ifPresent(b::readMode);
        TOKEN.find(o).ifPresent(b::token);
        DATACENTER.find(o).ifPresent(b::datacenter);
        b.tls(TLS.get(o));
        TRUST_STORE.find(o).ifPresent(b::trustStore);
        TRUST_STORE_PASSWORD.find(o).ifPresent(b::trustStorePassword);
        CONNECT_TIMEOUT.find(o).ifPresent(b::connectTimeout);
        READ_TIMEOUT.find(o).ifPresent(b::readTimeout);
        OPERATION_TIMEOUT.find(o).ifPresent(b::operationTimeout);
        START_TIMEOUT.find(o).ifPresent(b::startTimeout);
        WATCH_WAIT.find(o).ifPresent(b::watchWait);
        CHANGES_RETENTION.find(o).ifPresent(b::changesRetention);
        return b.build();
    }
}
