/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import io.hybris.spi.ObjectKeyPrefix;
import io.hybris.HybrisConfigurationException;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The validated, immutable configuration of one {@link AzureBlobCloudStore}. Every error message names the property
 * ({@code hybris.cloud.<id>.<option>}) that was wrong and says how to fix it; secrets never appear in messages.
 */
record AzureBlobSettings(
        String cloudId,
        URI endpoint,
        String container,
        String prefix,
        Credentials credentials,
        Duration connectTimeout,
        Duration requestTimeout,
        int retries,
        boolean createBucket,
        Optional<Path> trustStore,
        Optional<String> trustStorePassword) {

    /** Default {@code connect-timeout}. */
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** Default {@code request-timeout}: one attempt, until the response starts, and the longest pause in a body. */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** Default {@code retries}: none, so Hybris's fallback to another cloud decides latency. */
    static final int DEFAULT_RETRIES = 0;

    private static final Pattern CONTAINER = Pattern.compile("[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}");
    private static final Pattern ACCOUNT = Pattern.compile("[a-z0-9]{3,24}");

    /** How requests are authorised: exactly one of these is configured. */
    sealed interface Credentials permits SharedKey, SasToken, ConnectionString {
        /** The option(s) this came from, for messages, e.g. {@code account + key}. */
        String describe();
    }

    /** The account name and its base64 access key. */
    record SharedKey(String account, String key) implements Credentials {
        @Override
        public String describe() {
            return "account '" + account + "' with key";
        }

        @Override
        public String toString() {
            return "SharedKey[account=" + account + ", key=***]";
        }
    }

    /** A shared access signature (query string without the leading {@code ?}). */
    record SasToken(String token) implements Credentials {
        @Override
        public String describe() {
            return "sas-token";
        }

        @Override
        public String toString() {
            return "SasToken[***]";
        }
    }

    /** A storage connection string that names the account, its key or SAS and the blob endpoint. */
    record ConnectionString(String value) implements Credentials {
        @Override
        public String describe() {
            return "connection-string";
        }

        @Override
        public String toString() {
            return "ConnectionString[***]";
        }
    }

    /** Validates the builder's values. */
    static AzureBlobSettings of(AzureBlobCloudStore.Builder b) {
        String id = trimToNull(b.cloudId);
        if (id == null) {
            throw new HybrisConfigurationException(
                    "an Azure Blob cloud store needs a cloud id (the <id> of hybris.cloud.<id>.*)");
        }
        String container = trimToNull(b.container);
        if (container == null) {
            throw new HybrisConfigurationException(key(id, "container") + " is required but not set: the name of the"
                    + " blob container this cloud's objects are stored in");
        }
        if (!CONTAINER.matcher(container).matches()) {
            throw new HybrisConfigurationException(key(id, "container") + "=" + container + " is not a valid Azure"
                    + " container name: use 3-63 lower-case letters, digits and single hyphens, starting and ending"
                    + " with a letter or digit");
        }
        String prefix = normalisePrefix(id, b.prefix);
        String account = trimToNull(b.account);
        if (account != null && !ACCOUNT.matcher(account).matches()) {
            throw new HybrisConfigurationException(key(id, "account") + "=" + account + " is not a valid storage"
                    + " account name: use 3-24 lower-case letters and digits");
        }
        Credentials credentials = credentials(id, account, trimToNull(b.key), trimToNull(b.sasToken),
                trimToNull(b.connectionString));
        URI endpoint = endpoint(id, b.endpoint, account, credentials);
        Duration connect = AzureBlobCloudStoreProvider.CONNECT_TIMEOUT.orDefault(key(id, "connect-timeout"),
                b.connectTimeout);
        Duration request = AzureBlobCloudStoreProvider.REQUEST_TIMEOUT.orDefault(key(id, "request-timeout"),
                b.requestTimeout);
        int retries = AzureBlobCloudStoreProvider.RETRIES.orDefault(key(id, "retries"), b.retries);
        // the trust store is checked and loaded by TrustStore.loadIfSet when the clients are built
        Optional<Path> trustStore = Optional.ofNullable(b.trustStore);
        Optional<String> trustStorePassword = Optional.ofNullable(b.trustStorePassword);
        return new AzureBlobSettings(id, endpoint, container, prefix, credentials, connect, request, retries,
                b.createBucket, trustStore, trustStorePassword);
    }

    /** The full property key of an option of this cloud, e.g. {@code hybris.cloud.azure.container}. */
    String key(String option) {
        return key(cloudId, option);
    }

    static String key(String cloudId, String option) {
        return "hybris.cloud." + cloudId + "." + option;
    }

    /** Where the objects live, for messages: {@code container 'c' under prefix 'p/' at <endpoint>}. */
    String describeLocation() {
        return "container '" + container + "'" + (prefix.isEmpty() ? "" : " under prefix '" + prefix + "'")
                + " at " + endpointForMessages();
    }

    /** The endpoint, or where it comes from when a connection string gives it. */
    String endpointForMessages() {
        return endpoint == null ? "the connection string's blob endpoint" : endpoint.toString();
    }

    @Override
    public String toString() {
        return "AzureBlobSettings[" + cloudId + ": " + describeLocation() + ", credentials=" + credentials.describe()
                + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout + ", retries="
                + retries + ", createBucket=" + createBucket + "]";
    }

    private static Credentials credentials(String id, String account, String key, String sas, String connection) {
        List<String> given = new ArrayList<>();
        if (key != null) {
            given.add("key");
        }
        if (sas != null) {
            given.add("sas-token");
        }
        if (connection != null) {
            given.add("connection-string");
        }
        String oneWay = "set exactly one of " + key(id, "key") + " (with " + key(id, "account") + "), "
                + key(id, "sas-token") + " or " + key(id, "connection-string");
        if (given.isEmpty()) {
            throw new HybrisConfigurationException("no credentials for Azure cloud '" + id + "': " + oneWay
                    + " (there is no default credential chain: that would need the azure-identity library)");
        }
        if (given.size() > 1) {
            throw new HybrisConfigurationException("Azure cloud '" + id + "' has several credentials ("
                    + String.join(", ", given.stream().map(o -> key(id, o)).toList()) + "): " + oneWay);
        }
        if (key != null) {
            if (account == null) {
                throw new HybrisConfigurationException(key(id, "key") + " needs " + key(id, "account")
                        + ": the storage account name the key belongs to");
            }
            try {
                Base64.getDecoder().decode(key);
            } catch (IllegalArgumentException e) {
                throw new HybrisConfigurationException(key(id, "key") + " is not a base64 storage account key (copy"
                        + " key1 or key2 from the account's access keys)");
            }
            return new SharedKey(account, key);
        }
        if (sas != null) {
            return new SasToken(sas.startsWith("?") ? sas.substring(1) : sas);
        }
        if (account != null) {
            throw new HybrisConfigurationException(key(id, "account") + " must not be set with "
                    + key(id, "connection-string") + ": the connection string names the account");
        }
        if (!connection.contains("=")) {
            throw new HybrisConfigurationException(key(id, "connection-string") + " is not a storage connection"
                    + " string (expected 'DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;...')");
        }
        return new ConnectionString(connection);
    }

    private static URI endpoint(String id, String raw, String account, Credentials credentials) {
        String value = trimToNull(raw);
        if (credentials instanceof ConnectionString) {
            if (value != null) {
                throw new HybrisConfigurationException(key(id, "endpoint") + " must not be set with "
                        + key(id, "connection-string") + ": put the endpoint in the connection string"
                        + " (BlobEndpoint=...)");
            }
            return null;
        }
        if (value == null) {
            if (account == null) {
                throw new HybrisConfigurationException("set " + key(id, "endpoint") + " (the blob service URL, e.g."
                        + " https://<account>.blob.core.windows.net) or " + key(id, "account")
                        + " to derive it from");
            }
            return URI.create("https://" + account + ".blob.core.windows.net");
        }
        URI uri;
        try {
            uri = new URI(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
        } catch (java.net.URISyntaxException e) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " is not a URL: "
                    + e.getMessage());
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                || uri.getHost() == null) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " is not an http(s) URL such"
                    + " as https://<account>.blob.core.windows.net or http://127.0.0.1:10000/devstoreaccount1");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " must not have a query or"
                    + " fragment; give a SAS in " + key(id, "sas-token") + " and the container in "
                    + key(id, "container"));
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (uri.getPort() != -1) {
            // The SDK treats an endpoint with an explicit port as path-style: http://host:port/<account>.
            if (!path.matches("/[a-z0-9]{3,24}")) {
                throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " has a port, so it is"
                        + " path-style and its path must be just the storage account, e.g."
                        + " http://127.0.0.1:10000/devstoreaccount1");
            }
            if (account != null && !path.substring(1).equals(account)) {
                throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " names account '"
                        + path.substring(1) + "' but " + key(id, "account") + "=" + account);
            }
        } else if (!path.isEmpty()) {
            throw new HybrisConfigurationException(key(id, "endpoint") + "=" + value + " must not have a path"
                    + " (the account is in the host name); put the container in " + key(id, "container")
                    + " and a key prefix in " + key(id, "prefix"));
        }
        return uri;
    }

    private static String normalisePrefix(String id, String raw) {
        return ObjectKeyPrefix.normalize(key(id, "prefix"), raw);
    }

    private static String trimToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
