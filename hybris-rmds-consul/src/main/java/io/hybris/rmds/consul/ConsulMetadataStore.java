/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.HybrisConfigurationException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.Subscription;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.WatchedRead;
import io.hybris.spi.support.ConfigValues;
import io.hybris.spi.support.ListedNames;
import io.hybris.spi.support.MetadataPaging;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A {@link MetadataStore} on HashiCorp Consul's KV store (the paper's second RMDS, §4.2), through
 * {@code org.kiwiproject:consul-client}.
 *
 * <pre>{@code
 * try (ConsulMetadataStore store = ConsulMetadataStore.builder()
 *         .address("127.0.0.1:8500")          // the local Consul agent
 *         .keyPrefix("hybris")
 *         .build()) {                         // checks the agent has a leader, or throws MetadataUnavailableException
 *     store.conditionalUpdate(new MetadataUpdate(key, metadata, MetadataVersion.ABSENT));
 * }
 * }</pre>
 * In a configuration: {@code hybris.rmds.type=consul} and the options below under {@code hybris.rmds.consul.}
 * (see {@link ConsulMetadataStoreProvider}).
 *
 * <h2>Layout</h2>
 * The metadata of key {@code k} in container {@code c} is the value of the Consul KV entry
 * {@code <key-prefix>/<c>/<name>}, where {@code <name>} is {@code KeyEncoding.encode(k)} with each {@code %} written
 * as {@code ~} (Consul 1.22 rejects keys whose percent-decoded form holds a space or {@code ..}; {@code ~} never
 * occurs in the encoding, so the mapping is reversible). The value is stored as raw bytes; its
 * {@link MetadataVersion} is the entry's
 * {@code ModifyIndex}. A create ({@link MetadataVersion#ABSENT}) is a check-and-set {@code PUT ?cas=0}, an update
 * is {@code PUT ?cas=<ModifyIndex>}; a check-and-set that Consul answers {@code false} is a
 * {@link VersionConflictException}. {@link #conditionalUpdateAll} is one {@code /v1/txn} transaction of
 * {@code cas} operations (index 0 to create), which Consul applies atomically through Raft. Every update is such a
 * transaction, which also appends the commit to its container's change log under
 * {@code <key-prefix>/.changes/<c>/} ({@link #changes}; see {@code ConsulChangeLog} and docs/changes.md). {@link #list} lists the
 * keys under {@code <key-prefix>/<c>/<encoded prefix>} (keys only; a listing being paged keeps them between pages
 * while the container's index is unchanged), pages them in encoded-key order and fetches the page's values with
 * read-only transactions of up to 64 {@code get} operations; {@link #containers()} is a
 * key listing of {@code <key-prefix>/} with separator {@code /}.
 *
 * <h2>Options</h2>
 * {@link ConsulMetadataStoreProvider#OPTIONS} lists every option with its default and meaning (the table in
 * {@code docs/consul.md} is made from it); the builder's setters carry the same names.
 *
 * <h2>Limits</h2>
 * Consul rejects a transaction of more than {@value #MAX_TRANSACTION_OPERATIONS} operations, two of which record the
 * commit in the change log, so {@link #conditionalUpdateAll} of more than 62 keys throws {@link InvalidRequestException} before sending anything
 * (nothing is split: a split transaction would not be atomic). Consul limits one value to 512 KiB
 * ({@code limits.kv_max_value_size}) and one transaction request to 512 KiB ({@code limits.txn_max_req_len}) by
 * default; larger requests fail with {@link MetadataStoreException} naming the limit. A transaction carries each
 * value twice (the key and the change-log record), base64-encoded, so one update's values may add up to about
 * 190 KiB. Hybris metadata is about 50 to 200 bytes per key (up to about 2.3 KiB with application metadata).
 *
 * <h2>Group commit</h2>
 * Concurrent updates of one container through this store are queued and sent together, one transaction with one
 * change-log head check-and-set and one record per commit, each caller still getting its own outcome (a version
 * conflict fails only its own update); a lone update is sent at once. See {@code ConsulCommitQueue} and
 * docs/consul.md.
 *
 * <h2>Failures</h2>
 * An agent that does not answer with a leader within start-timeout throws {@link MetadataUnavailableException}
 * naming the address. During a call, transient failures are retried for operation-timeout and then throw
 * {@link MetadataUnavailableException} naming the operation and key; a write that fails this way has an unknown
 * outcome. A retried check-and-set whose first attempt did take effect is reported as a
 * {@link VersionConflictException}: the protocol re-reads on every conflict and recognises its own timestamp.
 * A request denied by an ACL (HTTP 403, or "Permission denied" in a transaction) throws
 * {@link MetadataStoreException} naming the {@code token} option (never the token). Consul filters key listings
 * and read transactions by ACL instead of denying them, so an empty listing is checked with a direct read of its
 * prefix, and a read transaction that returns fewer entries than asked is redone one key at a time: a token
 * without access fails instead of listing nothing. A value or transaction over Consul's size limit (HTTP 413)
 * throws {@link MetadataStoreException} naming the limit.
 *
 * <h2>Watches</h2>
 * {@link #readAndWatch} reads the key, then runs a blocking query ({@code ?index=<ModifyIndex>&wait=<watch-wait>})
 * on an HTTP thread owned by this store, re-issued until the key's {@code ModifyIndex} differs from the one read
 * (changed, created or deleted); Consul's spurious wake-ups (its index moves for other keys too) are filtered out.
 * The callback then runs once, on that thread. {@link Subscription#cancel()} cancels the blocking HTTP call at
 * once; the callback does not run after {@code cancel} returns. If the watch's queries keep failing for longer
 * than operation-timeout, or fail permanently (e.g. ACL denied), the callback fires conservatively (the reader
 * re-reads). Closing the store cancels its watches without firing them.
 *
 * <p>Thread-safe. Values and keys are never null.
 */
public final class ConsulMetadataStore implements MetadataStore {
    /** The most operations Consul accepts in one {@code /v1/txn} transaction. */
    public static final int MAX_TRANSACTION_OPERATIONS = 64;

    /** Consul's consistency mode for reads; see the class documentation. */
    public enum ReadMode {
        /** The leader verifies its leadership with a quorum before answering: linearizable. The default. */
        CONSISTENT("consistent"),
        /** The leader answers from its lease: may be stale for a short window after a leader change. */
        DEFAULT("default"),
        /** Any server answers: fastest, possibly far behind. */
        STALE("stale");

        private final String optionValue;

        ReadMode(String optionValue) {
            this.optionValue = optionValue;
        }

        /** The value of the {@code read-mode} option that selects this mode. */
        public String optionValue() {
            return optionValue;
        }

        /**
         * Parses an option value.
         *
         * @param key   the option's name, for the message
         * @param value {@code consistent}, {@code default} or {@code stale}
         * @throws HybrisConfigurationException naming the key and the accepted values
         */
        public static ReadMode fromOption(String key, String value) {
            return ConfigValues.parseChoice(key, value, values(), ReadMode::optionValue, "a read mode",
                    "consistent (linearizable, default), default (leader lease, may be stale briefly after a leader"
                            + " change) or stale (any server, may be far behind)");
        }

        @Override
        public String toString() {
            return optionValue;
        }
    }

    private final ConsulSettings settings;
    private final ConsulTransport transport;
    private final ConsulKv kv;
    private final Duration callTimeBound;
    private final String description;
    private final Set<ConsulWatch> watches = ConcurrentHashMap.newKeySet();
    private final ConsulChangeLog changeLog;
    private final ConsulWrites writes;
    private final ListedNames listings = new ListedNames();

    private ConsulMetadataStore(ConsulSettings s, ConsulTransport transport, String description) {
        this.settings = s;
        this.transport = transport;
        this.kv = new ConsulKv(s.keyPrefix(), description);
        this.changeLog = new ConsulChangeLog(transport, s, description, watches);
        this.writes = new ConsulWrites(transport, kv, changeLog, s, description);
        this.callTimeBound = s.operationTimeout().plus(s.connectTimeout().multipliedBy(2)).plus(s.readTimeout());
        this.description = description;
    }

    /** A builder with the defaults of {@link ConsulMetadataStoreProvider#OPTIONS}; an address is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Optional<VersionedValue> read(MetadataKey key) {
        transport.checkOpen();
        String consulKey = kv.consulKey(key);
        return transport.call("read", key.toString(),
                () -> transport.getValue(consulKey).map(ConsulKv::versioned));
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        Objects.requireNonNull(onChange, "onChange");
        Optional<VersionedValue> current = read(key);
        ConsulWatch watch = new ConsulWatch(transport, watches, settings, description, key, kv.consulKey(key),
                current.map(v -> v.version().value()).orElse(0L), onChange);
        if (transport.isClosed()) {
            watch.cancel();
            transport.checkOpen();
        }
        watch.poll();
        return new WatchedRead(current, watch);
    }

    @Override
    public MetadataPage list(String container, String prefix, String startAfter, int limit) {
        Objects.requireNonNull(container, "container");
        MetadataPaging.checkLimit(limit);
        transport.checkOpen();
        String base = kv.containerPrefix(container);
        String what = "container " + container;
        String encodedPrefix = prefix == null ? "" : KeyEncoding.encode(prefix);
        String listed = base + ConsulKv.consulName(encodedPrefix);
        List<String> names;
        if (startAfter == null) {
            names = sortedNames(base, listed, what);
        } else {
            // a listing being paged: the names are kept between pages while the container's index is unchanged
            // (ListedNames). The index read comes first, so kept or new, a page's names are as fresh as it; a key
            // deleted meanwhile (its deletion may hide behind an index reaped back) is skipped when its entry is read
            Long index = transport.folderIndex(base, "list", what);
            names = listings.current(listed, index, System.nanoTime());
            if (names == null) {
                names = sortedNames(base, listed, what);
                if (names.size() > limit) {
                    listings.keep(listed, index, names, System.nanoTime());
                }
            }
        }
        if (names.isEmpty()) {
            checkReadable(listed, "list", what);
            return new MetadataPage(List.of(), false);
        }
        return MetadataPaging.pageSorted(names, prefix, startAfter, limit, MAX_TRANSACTION_OPERATIONS,
                batch -> getAll(base, batch, what).stream().map(v -> ConsulKv.entry(base, v)).toList());
    }

    /** The encoded names of the Hybris keys under {@code listed}, sorted: one key listing (names only). */
    private List<String> sortedNames(String base, String listed, String what) {
        List<String> keys = transport.call("list", what, () -> transport.getKeys(listed, null));
        // paged by the encoded key, not by Consul's order: '~' (for '%') sorts differently from '%'
        return keys.stream()
                .filter(k -> k.startsWith(base))
                .map(k -> k.substring(base.length()))
                .filter(name -> kv.isHybrisKey(base, name))
                .map(ConsulKv::encodedName)
                .sorted()
                .toList();
    }

    /**
     * The entries of up to 64 keys (given encoded) in one read-only transaction, in the order given; keys deleted
     * since they were listed are left out.
     */
    private List<Value> getAll(String base, List<String> encodedNames, String what) {
        List<String> names = encodedNames.stream().map(ConsulKv::consulName).toList();
        ConsulTransport.Reply reply = transport.transaction(
                ConsulKv.getOperations(names.stream().map(n -> base + n).toList()), true, "list", what);
        TxResponse response = transport.parseTransaction(reply, "list", what);
        if (reply.code() == 200) {
            List<Value> values = new ArrayList<>(names.size());
            for (Map<String, Value> result : response.results()) {
                Value v = result.get("KV");
                if (v != null && v.getKey().startsWith(base)) {
                    values.add(v);
                }
            }
            if (values.size() == names.size()) {
                return values;
            }
            // Consul drops the entries a token may not read from a read transaction, silently: read one by one,
            // so a denial surfaces as one
        }
        // else (409) a key was deleted since the listing (Hybris never deletes, but a store may be shared)
        List<Value> values = new ArrayList<>(names.size());
        for (String name : names) {
            transport.call("list", what, () -> transport.getValue(base + name))
                    .ifPresent(values::add);
        }
        return values;
    }

    /**
     * Consul filters key listings by ACL without saying so: an empty listing may mean "no keys" or "no permission".
     * A direct read of the listed prefix tells them apart (HTTP 403 if denied, else 404) and throws if denied.
     */
    private void checkReadable(String consulKey, String operation, String what) {
        transport.call(operation, what, () -> transport.getValue(consulKey));
    }

    /**
     * A read, conditional update or transaction is one request retried for at most operation-timeout, and the
     * last attempt may take a connect, a send (both bounded by connect-timeout) and a read-timeout: with the
     * defaults 10 s + 5 s + 5 s + 8 s = 28 s, under Hybris's default 30 s deadline, so Hybris runs those calls on
     * its caller's thread. A write of several requests (the change-log head, then the transaction) has each cut off
     * at this bound from the call's start ({@code ConsulBatchWrite}), so it holds for writes too.
     */
    @Override
    public Optional<Duration> callTimeBound() {
        return Optional.of(callTimeBound);
    }

    @Override
    public int maxAtomicUpdates() {
        return MAX_TRANSACTION_OPERATIONS - ConsulWrites.LOG_OPERATIONS;
    }

    @Override
    public List<String> containers() {
        transport.checkOpen();
        String root = kv.prefix() + "/";
        String what = "key-prefix " + kv.prefix();
        List<String> folders = transport.call("list containers", what,
                () -> transport.getKeys(root, "/"));
        if (folders.isEmpty()) {
            checkReadable(root, "list containers", what);
        }
        return folders.stream()
                .filter(k -> k.startsWith(root) && k.endsWith("/") && k.length() > root.length() + 1)
                .map(k -> k.substring(root.length(), k.length() - 1))
                .filter(name -> !name.contains("/") && !name.startsWith(".")) // .changes: the change logs
                .distinct()
                .sorted()
                .toList();
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        writes.write(List.of(update));
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        writes.write(updates);
    }

    // ------------------------------------------------------------------ change log

    @Override
    public boolean hasChangeLog() {
        return true;
    }

    @Override
    public MetadataChangePage changes(String container, long fromSequence, int limit) {
        return changeLog.changes(container, fromSequence, limit);
    }

    @Override
    public long latestChange(String container) {
        return changeLog.latest(container);
    }

    @Override
    public Subscription watchChanges(String container, long fromSequence, Runnable onChange) {
        return changeLog.watch(container, fromSequence, onChange);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (transport.isClosed()) {
            return;
        }
        changeLog.close(); // first: a compaction this client started may finish (bounded) while the store is open
        if (!transport.markClosed()) {
            return;
        }
        for (ConsulWatch w : watches) {
            w.cancel();
        }
        transport.close();
        writes.close();
    }

    @Override
    public String toString() {
        return "ConsulMetadataStore[" + description + "]";
    }

    /** The transactions that commit batches of commits, for tests. */
    ConsulBatchWrite batchWrite() {
        return writes.batches();
    }

    /** The number of watches whose blocking query is still running, for tests. */
    int activeWatches() {
        return watches.size();
    }

    private static ConsulMetadataStore start(ConsulSettings s) {
        String description = s.where() + ", key-prefix " + s.keyPrefix() + ", read-mode " + s.readMode();
        ConsulMetadataStore store = new ConsulMetadataStore(s, ConsulTransport.open(s, description), description);
        try {
            store.transport.awaitLeader();
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Configures and connects a {@link ConsulMetadataStore}; the defaults and meaning of each setting are those of
     * the option of the same name ({@link ConsulMetadataStoreProvider#OPTIONS}). Not thread-safe;
     * {@link #build()} validates every setting (messages name the option) and blocks until the agent answers with
     * a leader.
     */
    public static final class Builder {
        String address;
        String keyPrefix = ConsulMetadataStoreProvider.KEY_PREFIX.defaultValue().orElseThrow();
        ReadMode readMode = ReadMode.CONSISTENT;
        String token;
        String datacenter;
        boolean tls;
        Path trustStore;
        String trustStorePassword;
        Duration connectTimeout = ConsulMetadataStoreProvider.CONNECT_TIMEOUT.defaultValue().orElseThrow();
        Duration readTimeout = ConsulMetadataStoreProvider.READ_TIMEOUT.defaultValue().orElseThrow();
        Duration operationTimeout = ConsulMetadataStoreProvider.OPERATION_TIMEOUT.defaultValue().orElseThrow();
        Duration startTimeout = ConsulMetadataStoreProvider.START_TIMEOUT.defaultValue().orElseThrow();
        Duration watchWait = ConsulMetadataStoreProvider.WATCH_WAIT.defaultValue().orElseThrow();
        int changesRetention = ConsulMetadataStoreProvider.CHANGES_RETENTION.defaultValue().orElseThrow();
        Function<String, String> keyNames = name -> name;
        BoundedRetry.Sleeper sleeper = BoundedRetry.Sleeper.SYSTEM;

        private Builder() {
        }

        /** {@code host:port} of the agent's HTTP(S) API, e.g. {@code 127.0.0.1:8500}. Required. */
        public Builder address(String address) {
            this.address = address;
            return this;
        }

        /** The KV path holding all metadata, without leading or trailing slash; default {@code hybris}. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** Consul's consistency mode for reads; default {@link ReadMode#CONSISTENT}. */
        public Builder readMode(ReadMode readMode) {
            this.readMode = Objects.requireNonNull(readMode, "readMode");
            return this;
        }

        /** The ACL token; null for none. */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /** The datacenter to address; null for the agent's own. */
        public Builder datacenter(String datacenter) {
            this.datacenter = datacenter;
            return this;
        }

        /** Whether to use HTTPS; default false. */
        public Builder tls(boolean tls) {
            this.tls = tls;
            return this;
        }

        /** A PKCS#12 or JKS trust store with the CA certificates to trust (needs TLS); null for the JDK's. */
        public Builder trustStore(Path trustStore) {
            this.trustStore = trustStore;
            return this;
        }

        /** The trust store's password; null for none. */
        public Builder trustStorePassword(String password) {
            this.trustStorePassword = password;
            return this;
        }

        /**
         * As {@link #trustStore(Path)}.
         *
         * @deprecated the option is now {@code trust-store}, as for every driver; use {@link #trustStore(Path)}
         */
        @Deprecated
        public Builder tlsTruststore(Path truststore) {
            return trustStore(truststore);
        }

        /**
         * As {@link #trustStorePassword(String)}.
         *
         * @deprecated the option is now {@code trust-store-password}; use {@link #trustStorePassword(String)}
         */
        @Deprecated
        public Builder tlsTruststorePassword(String password) {
            return trustStorePassword(password);
        }

        /** Connect timeout of one request; default 5 s. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** How long one request waits for its answer; default 8 s. */
        public Builder readTimeout(Duration readTimeout) {
            this.readTimeout = readTimeout;
            return this;
        }

        /** How long a call keeps retrying transient failures; default 10 s. */
        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
            return this;
        }

        /** How long {@link #build()} waits for the agent to answer with a leader; default 15 s. */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /** The {@code wait} of one blocking query of a watch, 1 s to 10 min; default 5 min. */
        public Builder watchWait(Duration watchWait) {
            this.watchWait = watchWait;
            return this;
        }

        /** How many commits each container's change log keeps; default 20,000. */
        public Builder changesRetention(int changesRetention) {
            this.changesRetention = changesRetention;
            return this;
        }

        /** Names options in messages as full property keys (used by the provider). */
        Builder keyNames(Function<String, String> keyNames) {
            this.keyNames = keyNames;
            return this;
        }

        /** How retries wait (tests). */
        Builder sleeper(BoundedRetry.Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * Validates the settings, connects and waits until the agent reports a cluster leader.
         *
         * @throws HybrisConfigurationException naming the option that is missing or invalid
         * @throws MetadataUnavailableException if the agent does not answer with a leader within the start timeout
         *                                      (the message names the address and the timeout)
         * @throws MetadataStoreException       if the agent rejects the token
         */
        public ConsulMetadataStore build() {
            return start(ConsulSettings.of(this));
        }
    }
}
