/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.HybrisConfigurationException;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.common.PathUtils;

import java.time.Duration;
import java.util.function.Function;

import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.CONNECT_TIMEOUT;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.OPERATION_TIMEOUT;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.REQUEST_TIMEOUT;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.CHANGES_RETENTION;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.MAX_REQUEST_SIZE;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.MAX_RESPONSE_SIZE;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.SESSION_TIMEOUT;
import static io.hybris.rmds.zookeeper.ZooKeeperMetadataStoreProvider.START_TIMEOUT;

/**
 * The validated, immutable configuration of one {@link ZooKeeperMetadataStore}, made from its
 * {@link ZooKeeperMetadataStore.Builder}; every error names the option and says how to fix it.
 *
 * @param connect          the connect string, or null while only the client options are checked
 * @param operationTimeout the effective operation timeout (the connect timeout unless set)
 * @param requestTimeout   ZooKeeper's {@code zookeeper.request.timeout}: the longest one request waits for its answer
 * @param maxResponseSize  the client's {@code jute.maxbuffer}: the largest response it accepts, in bytes
 * @param maxRequestSize   the servers' {@code jute.maxbuffer}: the largest request they accept, in bytes
 * @param keyNames         names options in messages (full property keys when the store comes from a configuration)
 * @param description      replaces "ZooKeeper at &lt;connect&gt;" in the description, or null
 * @param owned            closed after the client, or null
 */
record ZooKeeperSettings(String connect, String root, ZooKeeperMetadataStore.ReadMode readMode,
                         Duration sessionTimeout, Duration connectTimeout, Duration operationTimeout,
                         Duration requestTimeout, Duration startTimeout, String digest, long maxResponseSize,
                         long maxRequestSize, int changesRetention, Function<String, String> keyNames,
                         String description, AutoCloseable owned) {

    /** Validates a builder's settings; {@code connect} only if {@code withConnect}. */
    static ZooKeeperSettings of(ZooKeeperMetadataStore.Builder b, boolean withConnect) {
        Function<String, String> keys = b.keyNames;
        String connect = null;
        if (withConnect) {
            if (b.connect == null || b.connect.isBlank()) {
                throw new HybrisConfigurationException(keys.apply("connect")
                        + " is required: the ZooKeeper ensemble, e.g. zk1:2181,zk2:2181,zk3:2181");
            }
            connect = b.connect.trim();
            checkConnect(connect, keys);
        }
        checkRoot(b.root, keys);
        Duration session = SESSION_TIMEOUT.check(keys.apply(SESSION_TIMEOUT.name()), b.sessionTimeout);
        Duration connectTimeout = CONNECT_TIMEOUT.check(keys.apply(CONNECT_TIMEOUT.name()), b.connectTimeout);
        Duration operationTimeout = OPERATION_TIMEOUT.check(keys.apply(OPERATION_TIMEOUT.name()),
                b.operationTimeout != null ? b.operationTimeout : connectTimeout);
        Duration request = REQUEST_TIMEOUT.check(keys.apply(REQUEST_TIMEOUT.name()), b.requestTimeout);
        Duration start = START_TIMEOUT.check(keys.apply(START_TIMEOUT.name()), b.startTimeout);
        if (b.digest != null && b.digest.indexOf(':') <= 0) {
            throw new HybrisConfigurationException(keys.apply("digest")
                    + " must have the form user:password (value not shown: it is a secret)");
        }
        long maxResponse = MAX_RESPONSE_SIZE.check(keys.apply(MAX_RESPONSE_SIZE.name()), b.maxResponseSize);
        long maxRequest = MAX_REQUEST_SIZE.check(keys.apply(MAX_REQUEST_SIZE.name()), b.maxRequestSize);
        int retention = CHANGES_RETENTION.check(keys.apply(CHANGES_RETENTION.name()), b.changesRetention);
        return new ZooKeeperSettings(connect, b.root, b.readMode, session, connectTimeout, operationTimeout, request, start,
                b.digest, maxResponse, maxRequest, retention, keys, b.description, b.owned);
    }

    /** The full property key (or the bare name) of an option, for messages. */
    String key(String option) {
        return keyNames.apply(option);
    }

    /** The digest user, or null. */
    String digestUser() {
        return digest == null ? null : digest.substring(0, digest.indexOf(':'));
    }

    /** What the store says it is. */
    String describe() {
        String where = description != null ? description : "ZooKeeper at " + connect;
        return where + ", root " + root + ", read-mode " + readMode;
    }

    @Override
    public String toString() {
        return "ZooKeeperSettings[" + describe() + ", digest=" + (digest == null ? "none" : "***") + "]";
    }

    /**
     * Parses the connect string as the ZooKeeper client will: a malformed one (a port that is not a number or out of
     * range, no host, a chroot that is not a valid path) would otherwise fail inside the client's connection
     * thread, and the store would wait out start-timeout and report the ensemble unreachable.
     */
    private static void checkConnect(String connect, Function<String, String> keys) {
        String problem;
        try {
            ConnectStringParser parsed = new ConnectStringParser(connect);
            problem = parsed.getServerAddresses().isEmpty() ? "it names no server"
                    : parsed.getServerAddresses().stream().anyMatch(a -> a.getHostString().isEmpty())
                    ? "a server has no host name" : null;
        } catch (IllegalArgumentException e) { // NumberFormatException for a port that is not a number
            problem = e instanceof NumberFormatException ? "a port is not a number (" + e.getMessage() + ")"
                    : e.getMessage();
        }
        if (problem != null) {
            throw new HybrisConfigurationException(keys.apply("connect") + "=" + connect + " is not a valid connect"
                    + " string: " + problem + "; use host:port[,host:port...][/chroot], e.g."
                    + " zk1:2181,zk2:2181,zk3:2181");
        }
    }

    private static void checkRoot(String root, Function<String, String> keys) {
        if (root == null || root.isEmpty()) {
            throw new HybrisConfigurationException(keys.apply("root") + " must not be empty; use an"
                    + " absolute znode path such as /hybris");
        }
        String problem = null;
        if (!root.startsWith("/")) {
            problem = "it is not absolute";
        } else if (root.equals("/")) {
            problem = "the ZooKeeper root itself is not allowed";
        } else if (root.endsWith("/")) {
            problem = "it ends with '/'";
        } else if (root.equals("/zookeeper") || root.startsWith("/zookeeper/")) {
            problem = "/zookeeper is reserved by ZooKeeper";
        } else {
            try {
                PathUtils.validatePath(root);
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
        }
        if (problem != null) {
            throw new HybrisConfigurationException(keys.apply("root") + "=" + root + " is not a valid root: "
                    + problem + "; use an absolute znode path without a trailing slash, e.g. /hybris");
        }
    }
}
