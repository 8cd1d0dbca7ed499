/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.support.Option;
import io.hybris.spi.support.OptionSet;
import io.hybris.spi.support.StandardOptions;

import java.time.Duration;
import java.util.Set;

/**
 * {@code hybris.rmds.type=zookeeper}: a {@link ZooKeeperMetadataStore} on an existing ZooKeeper ensemble.
 *
 * <pre>{@code
 * hybris.rmds.type=zookeeper
 * hybris.rmds.zookeeper.connect=zk1:2181,zk2:2181,zk3:2181
 * hybris.rmds.zookeeper.root=/hybris
 * # hybris.rmds.zookeeper.digest from the environment: HYBRIS_RMDS_ZOOKEEPER_DIGEST=user:password
 * }</pre>
 * The options, their defaults and meaning are {@link #OPTIONS} (the table in {@code docs/zookeeper.md} is made
 * from it). Found by {@link java.util.ServiceLoader}; stateless and thread-safe.
 */
public final class ZooKeeperMetadataStoreProvider implements MetadataStoreProvider {
    /** The {@code hybris.rmds.type} value of this provider. */
    public static final String TYPE = "zookeeper";

    static final Option<String> CONNECT = Option.string("connect", null, "the ensemble, e.g."
            + " `zk1:2181,zk2:2181,zk3:2181` (a chroot suffix is allowed)").required();
    static final Option<String> ROOT = Option.string("root", "/hybris", "absolute znode path for all metadata, no"
            + " trailing slash; created if missing");
    static final Option<ZooKeeperMetadataStore.ReadMode> READ_MODE = Option.of("read-mode",
            ZooKeeperMetadataStore.ReadMode::fromOption, ZooKeeperMetadataStore.ReadMode.SYNC, "`sync`: `sync()`"
                    + " then `getData` — linearizable, as in the paper; `quorum-write`: a write to `<root>/.sync`"
                    + " before each read — linearizable, one more disk write per read; `local`: plain read from the"
                    + " connected server — fast, may be stale (GET may return an older value). Conditional"
                    + " updates are linearizable in every mode");
    static final Option<Duration> SESSION_TIMEOUT = Option.duration("session-timeout", Duration.ofSeconds(30),
            "ZooKeeper session timeout").positive();
    static final Option<Duration> CONNECT_TIMEOUT = StandardOptions.CONNECT_TIMEOUT
            .defaultValue(Duration.ofSeconds(10))
            .doc("how long a call waits for a connection before its first attempt")
            .deprecatedAlias("connection-timeout");
    static final Option<Duration> OPERATION_TIMEOUT = Option.duration("operation-timeout", null, "how long a call"
            + " keeps retrying after a connection loss").positive().defaultText("= `connect-timeout`");
    static final Option<Duration> REQUEST_TIMEOUT = Option.duration("request-timeout", Duration.ofSeconds(5), "how"
            + " long one request waits for its answer on a connected session (ZooKeeper's `zookeeper.request.timeout`);"
            + " then the connection is dropped and the request retried on a new one within `operation-timeout`. A"
            + " call takes at most `connect-timeout` + `operation-timeout` + `request-timeout` (+ 1 s), so Hybris"
            + " runs it on the caller's thread when the call's deadline leaves more").positive();
    static final Option<Duration> START_TIMEOUT = Option.duration("start-timeout", Duration.ofSeconds(15), "how"
            + " long opening waits for the first connection").positive();
    static final Option<String> DIGEST = Option.string("digest", null, "`user:password`: authenticate with the"
            + " `digest` scheme; every node created gets an ACL for that identity only. A secret: set"
            + " `HYBRIS_RMDS_ZOOKEEPER_DIGEST`");

    static final Option<Long> MAX_RESPONSE_SIZE = Option.size("max-response-size", 64L << 20, "the largest"
            + " response this client accepts (ZooKeeper's client-side `jute.maxbuffer`, 1 MiB if unset). A"
            + " container's key listing is one response of about 4 bytes + the encoded key per key: 64 MiB holds"
            + " about a million 60-character keys, 1 MiB about 16,000. A larger response drops the connection and"
            + " the listing fails. Memory is taken only by responses that large").defaultText("`64MiB`")
            .between(1L << 20, 1L << 30, " bytes (1MiB to 1GiB)");

    static final Option<Long> MAX_REQUEST_SIZE = Option.size("max-request-size", 1_048_575L, "the largest request"
            + " the servers accept: their `jute.maxbuffer` (1 MiB - 1 byte unless set on every server). An update"
            + " larger than this (a TPUT of many keys with large application metadata, whose change-log record repeats"
            + " each key's metadata) is refused with `InvalidRequestException` before it is sent; a server would close"
            + " the connection instead, failing the calls in flight on it").between(4096L, 1L << 30,
            " bytes (4KiB to 1GiB)");

    static final Option<Integer> CHANGES_RETENTION = StandardOptions.CHANGES_RETENTION.between(1, 50_000,
            " (ZooKeeper lists a log's children in one response, bounded by jute.maxbuffer)");

    /**
     * The client options (all but {@code connect}), also taken by a provider that starts its own server: the
     * embedded ZooKeeper (module {@code hybris-rmds-zookeeper-embedded}).
     */
    public static final OptionSet CLIENT = OptionSet.of(ROOT, READ_MODE, SESSION_TIMEOUT, CONNECT_TIMEOUT,
            OPERATION_TIMEOUT, REQUEST_TIMEOUT, START_TIMEOUT, DIGEST, MAX_RESPONSE_SIZE, MAX_REQUEST_SIZE,
            CHANGES_RETENTION);

    /** Every option of this provider, in the order of its documentation. */
    public static final OptionSet OPTIONS = OptionSet.of(CONNECT).with(CLIENT.options().toArray(Option<?>[]::new));

    /** The names of the client options (deprecated aliases included), shared with the embedded provider. */
    public static final Set<String> CLIENT_OPTIONS = CLIENT.names();

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public ZooKeeperMetadataStoreProvider() {
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
    public MetadataStore create(ProviderOptions options) {
        return configure(ZooKeeperMetadataStore.builder(), options)
                .connect(CONNECT.get(options))
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
        ROOT.find(o).ifPresent(b::root);
        READ_MODE.find(o).ifPresent(b::readMode);
        SESSION_TIMEOUT.find(o).ifPresent(b::sessionTimeout);
        CONNECT_TIMEOUT.find(o).ifPresent(b::connectTimeout);
        OPERATION_TIMEOUT.find(o).ifPresent(b::operationTimeout);
        REQUEST_TIMEOUT.find(o).ifPresent(b::requestTimeout);
        START_TIMEOUT.find(o).ifPresent(b::startTimeout);
        DIGEST.find(o).ifPresent(b::digest);
        MAX_RESPONSE_SIZE.find(o).ifPresent(b::maxResponseSize);
        MAX_REQUEST_SIZE.find(o).ifPresent(b::maxRequestSize);
        CHANGES_RETENTION.find(o).ifPresent(b::changesRetention);
        return b;
    }
}
