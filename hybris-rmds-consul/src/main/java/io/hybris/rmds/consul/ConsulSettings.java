/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.HybrisConfigurationException;
import okhttp3.HttpUrl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Pattern;

import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.CHANGES_RETENTION;
import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.CONNECT_TIMEOUT;
import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.OPERATION_TIMEOUT;
import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.READ_TIMEOUT;
import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.START_TIMEOUT;
import static io.hybris.rmds.consul.ConsulMetadataStoreProvider.WATCH_WAIT;

/**
 * The validated, immutable configuration of one {@link ConsulMetadataStore}, made from its
 * {@link ConsulMetadataStore.Builder}; every error names the option and says how to fix it.
 *
 * @param keyNames names options in messages (full property keys when the store comes from a configuration)
 * @param sleeper  how retries wait
 */
record ConsulSettings(String address, String keyPrefix, ConsulMetadataStore.ReadMode readMode, String token,
                      String datacenter, boolean tls, Path trustStore, String trustStorePassword,
                      Duration connectTimeout, Duration readTimeout, Duration operationTimeout, Duration startTimeout,
                      Duration watchWait, int changesRetention, Function<String, String> keyNames,
                      BoundedRetry.Sleeper sleeper) {
    private static final Pattern PREFIX_SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern DATACENTER = Pattern.compile("[A-Za-z0-9_-]+");

    /** Validates a builder's settings. */
    static ConsulSettings of(ConsulMetadataStore.Builder b) {
        Function<String, String> keys = b.keyNames;
        if (b.address == null || b.address.isBlank()) {
            throw new HybrisConfigurationException(keys.apply("address")
                    + " is required: host:port of the Consul agent's HTTP API, e.g. 127.0.0.1:8500");
        }
        String address = b.address.trim();
        if (!validAddress(address)) {
            throw new HybrisConfigurationException(keys.apply("address") + "=" + address
                    + " is not host:port; use e.g. 127.0.0.1:8500 or [::1]:8500 (no scheme: set "
                    + keys.apply("tls") + "=true for HTTPS)");
        }
        String problem = keyPrefixProblem(b.keyPrefix);
        if (problem != null) {
            throw new HybrisConfigurationException(keys.apply("key-prefix") + "=" + b.keyPrefix
                    + " is not a valid key prefix: " + problem + "; use segments of [A-Za-z0-9._-] separated by"
                    + " '/', e.g. hybris or apps/photos/hybris");
        }
        String token = b.token != null && b.token.isBlank() ? null : b.token;
        if (b.datacenter != null && !DATACENTER.matcher(b.datacenter).matches()) {
            throw new HybrisConfigurationException(keys.apply("datacenter") + "=" + b.datacenter
                    + " is not a Consul datacenter name ([A-Za-z0-9_-]+), e.g. dc1");
        }
        if (!b.tls && (b.trustStore != null || b.trustStorePassword != null)) {
            throw new HybrisConfigurationException(keys.apply(b.trustStore != null ? "trust-store"
                    : "trust-store-password") + " is set but " + keys.apply("tls")
                    + " is not true; set " + keys.apply("tls") + "=true to talk HTTPS to Consul");
        }
        return new ConsulSettings(address, b.keyPrefix, b.readMode, token, b.datacenter, b.tls, b.trustStore,
                b.trustStorePassword,
                CONNECT_TIMEOUT.check(keys.apply(CONNECT_TIMEOUT.name()), b.connectTimeout),
                READ_TIMEOUT.check(keys.apply(READ_TIMEOUT.name()), b.readTimeout),
                OPERATION_TIMEOUT.check(keys.apply(OPERATION_TIMEOUT.name()), b.operationTimeout),
                START_TIMEOUT.check(keys.apply(START_TIMEOUT.name()), b.startTimeout),
                WATCH_WAIT.check(keys.apply(WATCH_WAIT.name()), b.watchWait),
                CHANGES_RETENTION.check(keys.apply(CHANGES_RETENTION.name()), b.changesRetention),
                keys, b.sleeper);
    }

    /** The full property key (or the bare name) of an option, for messages. */
    String key(String option) {
        return keyNames.apply(option);
    }

    /** Where the store is, for messages: {@code Consul at <address> (datacenter <dc>)}. */
    String where() {
        return "Consul at " + address + (datacenter == null ? "" : " (datacenter " + datacenter + ")");
    }

    @Override
    public String toString() {
        return "ConsulSettings[" + where() + ", key-prefix " + keyPrefix + ", read-mode " + readMode + ", token="
                + (token == null ? "none" : "***") + "]";
    }

    private static String keyPrefixProblem(String keyPrefix) {
        if (keyPrefix == null || keyPrefix.isEmpty()) {
            return "it is empty";
        }
        if (keyPrefix.startsWith("/") || keyPrefix.endsWith("/")) {
            return "it starts or ends with '/'";
        }
        for (String segment : keyPrefix.split("/", -1)) {
            if (segment.isEmpty()) {
                return "it has an empty segment ('//')";
            } else if (segment.equals(".") || segment.equals("..")) {
                return "it has a '" + segment + "' segment";
            } else if (!PREFIX_SEGMENT.matcher(segment).matches()) {
                return "segment '" + segment + "' has a character outside [A-Za-z0-9._-]";
            }
        }
        return null;
    }

    private static boolean validAddress(String a) {
        int colon = a.lastIndexOf(':');
        if (colon <= 0 || a.contains("/") || a.contains("@")) {
            return false;
        }
        String host = a.substring(0, colon);
        if (host.contains(":") && !(host.startsWith("[") && host.endsWith("]"))) {
            return false;
        }
        try {
            int port = Integer.parseInt(a.substring(colon + 1));
            return port > 0 && port < 65536 && HttpUrl.parse("http://" + a) != null;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
