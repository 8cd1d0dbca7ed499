/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataEntry;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A {@link MetadataStore} on Apache ZooKeeper through Curator (the paper's RMDS, §4.1).
 *
 * <pre>{@code
 * try (ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder()
 *         .connect("zk1:2181,zk2:2181,zk3:2181")
 *         .root("/hybris")
 *         .build()) {                       // connects, or throws MetadataUnavailableException
 *     store.conditionalUpdate(new MetadataUpdate(key, metadata, MetadataVersion.ABSENT));
 * }
 * }</pre>
 * In a configuration: {@code hybris.rmds.type=zookeeper} and the options below under
 * {@code hybris.rmds.zookeeper.} (see {@link ZooKeeperMetadataStoreProvider}).
 *
 * <h2>Layout</h2>
 * The metadata of key {@code k} in container {@code c} is the data of the znode
 * {@code <root>/<c>/<KeyEncoding.encode(k)>}; its {@link MetadataVersion} is the znode's data version. A create
 * ({@link MetadataVersion#ABSENT}) is {@code create} (the container znode is made on demand as a ZooKeeper
 * container node), an update is {@code setData} with the expected version, and
 * {@link #conditionalUpdateAll} is one {@code multi} transaction. Every update's {@code multi} also appends the
 * commit to its container's change log, {@code <root>/.changes/<c>} ({@link #changes}; see
 * {@code ZooKeeperChangeLog} and docs/changes.md). {@code <root>/.sync} is this store's own node
 * for the {@code quorum-write} read mode; it can never clash with a container, whose names start with a letter
 * or digit.
 *
 * <h2>Options</h2>
 * {@link ZooKeeperMetadataStoreProvider#OPTIONS} lists every option with its default and meaning (the table in
 * {@code docs/zookeeper.md} is made from it); the builder's setters carry the same names. A call against an
 * unreachable ensemble fails with {@link MetadataUnavailableException} after about connect-timeout +
 * operation-timeout; a request on a connected session that gets no answer fails after request-timeout (the
 * connection is then dropped and the request retried on a new one). A read, watched read or conditional update
 * ends within connect-timeout + operation-timeout + request-timeout (+ 1 s), which the store reports as its
 * {@link #callTimeBound()}.
 *
 * <h2>Failures</h2>
 * An unreachable ensemble at start, and connection loss, session expiry or operation timeouts that outlast the
 * retries, throw {@link MetadataUnavailableException} naming the operation and key; a request denied by an ACL
 * throws {@link MetadataStoreException} naming the ACL and the digest option. Curator retries a write after a
 * connection loss, so a conditional update that did take effect may be reported as a
 * {@link VersionConflictException} (its retry found the version it had itself changed): the protocol re-reads on
 * every conflict and recognises its own timestamp, so this is not hidden here. After the session expires,
 * Curator connects with a new session; calls fail with {@link MetadataUnavailableException} while there is no
 * connection and succeed again once there is.
 *
 * <h2>Watches</h2>
 * A watch from {@link #readAndWatch} is a ZooKeeper data watch (an exists watch for a missing key). Its callback
 * runs at most once, on the ZooKeeper event thread, when the node is created, changed or deleted, and also when
 * the session expires: the server forgets watches with the session, so the callback then fires conservatively
 * (the reader re-reads and subscribes again). {@link Subscription#cancel()} removes the watch from the server
 * in the background; the callback is disarmed before {@code cancel} returns.
 *
 * <p>Thread-safe. Values and keys are never null.
 */
public final class ZooKeeperMetadataStore implements MetadataStore {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);
    private static final int MAX_PIPELINED_READS = 256;
    private static final int MAX_WATCH_ATTEMPTS = 10;

    /** How reads are ordered against writes; see the class documentation. */
    public enum ReadMode {
        /** {@code sync()} then {@code getData}: linearizable (paper §4.1). The default. */
        SYNC("sync"),
        /** A write through the leader to {@code <root>/.sync} before each read: linearizable, one more write. */
        QUORUM_WRITE("quorum-write"),
        /** A plain read from the connected server: fastest, may be stale. */
        LOCAL("local");

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
         * @param value {@code sync}, {@code quorum-write} or {@code local}
         * @throws HybrisConfigurationException naming the key and the accepted values
         */
        public static ReadMode fromOption(String key, String value) {
            return ConfigValues.parseChoice(key, value, values(), ReadMode::optionValue, "a read mode",
                    "sync (linearizable, default), quorum-write (linearizable, one more write per read) or local"
                            + " (fast, may be stale)");
        }

        @Override
        public String toString() {
            return optionValue;
        }
    }

    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final ZooKeeperLayout layout;
    private final ReadMode readMode;
    private final String description;
    private final ZooKeeperChangeLog changeLog;
    private final ZooKeeperWrites writes;
    private final CallDeadline deadline;
    private final ListedNames listings = new ListedNames();

    private ZooKeeperMetadataStore(ZooKeeperSettings s, ZooKeeperSession session) {
        this.session = session;
        this.deadline = session.deadline();
        this.client = session.client();
        this.layout = new ZooKeeperLayout(s.root());
        this.readMode = s.readMode();
        this.description = s.describe();
        this.changeLog = new ZooKeeperChangeLog(session, s.root(), description, s.changesRetention(),
                s.readMode() != ReadMode.LOCAL);
        String requestSizeKey = s.key(ZooKeeperMetadataStoreProvider.MAX_REQUEST_SIZE.name());
        this.writes = new ZooKeeperWrites(session, layout, changeLog,
                new RequestSize(s.maxRequestSize(), s.connect(), requestSizeKey));
    }

    /** A builder with the defaults of {@link ZooKeeperMetadataStoreProvider#OPTIONS}; connect is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Optional<VersionedValue> read(MetadataKey key) {
        session.checkOpen();
        boolean began = deadline.begin();
        try {
            return readWithin(key);
        } finally {
            deadline.end(began);
        }
    }

    private Optional<VersionedValue> readWithin(MetadataKey key) {
        String path = layout.path(key);
        if (readMode == ReadMode.SYNC) {
            Optional<Optional<VersionedValue>> fast = session.pipelinedSyncRead(path);
            if (fast.isPresent()) {
                return fast.get();
            }
        }
        try {
            session.beforeRead();
            deadline.beforeRequest("read", key.toString());
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(ZooKeeperLayout.versioned(data, stat));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw session.failure("read", key.toString(), e);
        }
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        Objects.requireNonNull(onChange, "onChange");
        session.checkOpen();
        boolean began = deadline.begin();
        try {
            return readAndWatchWithin(key, onChange);
        } finally {
            deadline.end(began);
        }
    }

    private WatchedRead readAndWatchWithin(MetadataKey key, Runnable onChange) {
        String path = layout.path(key);
        ZooKeeperWatch watch = new ZooKeeperWatch(session, description, path, onChange);
        try {
            session.beforeRead();
            for (int attempt = 0; attempt < MAX_WATCH_ATTEMPTS; attempt++) {
                try {
                    deadline.beforeRequest("read", key.toString());
                    Stat stat = new Stat();
                    byte[] data = client.getData().storingStatIn(stat).usingWatcher(watch).forPath(path);
                    return new WatchedRead(Optional.of(ZooKeeperLayout.versioned(data, stat)), watch);
                } catch (KeeperException.NoNodeException missing) {
                    // getData sets no watch on a missing node; an exists watch fires when it is created
                    deadline.beforeRequest("read", key.toString());
                    if (client.checkExists().usingWatcher(watch).forPath(path) == null) {
                        return new WatchedRead(Optional.empty(), watch);
                    }
                    // created in between: the exists watch now watches its data; read it
                }
            }
            throw new MetadataStoreException("read of " + key + " on " + description + " gave up: the znode "
                    + path + " kept appearing and disappearing");
        } catch (MetadataStoreException e) {
            watch.cancel();
            throw e;
        } catch (Exception e) {
            watch.cancel();
            throw session.failure("read", key.toString(), e);
        }
    }

    @Override
    public MetadataPage list(String container, String prefix, String startAfter, int limit) {
        Objects.requireNonNull(container, "container");
        MetadataPaging.checkLimit(limit);
        session.checkOpen();
        String containerPath = layout.containerPath(container);
        String what = "container " + container;
        List<String> names;
        try {
            session.beforeRead();
            names = sortedNames(containerPath, limit);
        } catch (KeeperException.NoNodeException e) {
            listings.forget(containerPath);
            return new MetadataPage(List.of(), false);
        } catch (Exception e) {
            throw session.listingFailure(what, containerPath, e);
        }
        return MetadataPaging.pageSorted(names, prefix, startAfter, limit, MAX_PIPELINED_READS,
                batch -> readAll(containerPath, batch, what));
    }

    /**
     * The container's key names, sorted: those kept from an earlier page while the container's children are
     * unchanged ({@link ListedNames}; the container znode's {@code czxid} tells a container deleted and created again
     * apart, its {@code cversion} moves with every child created or deleted, not with a key's update, and the
     * {@code exists} that reads them comes after the read-mode sync, so a page is as fresh as one from a new
     * {@code getChildren}), else a new {@code getChildren}, kept when it is longer than one page.
     */
    private List<String> sortedNames(String containerPath, int limit) throws Exception {
        if (listings.holds(containerPath)) {
            Stat now = client.checkExists().forPath(containerPath);
            if (now == null) {
                throw new KeeperException.NoNodeException(containerPath);
            }
            List<String> kept = listings.current(containerPath, ChildrenVersion.of(now), System.nanoTime());
            if (kept != null) {
                return kept;
            }
        }
        Stat stat = new Stat();
        List<String> children = client.getChildren().storingStatIn(stat).forPath(containerPath);
        List<String> sorted = children.stream().filter(name -> isHybrisKey(containerPath, name)).sorted().toList();
        if (sorted.size() > limit) {
            listings.keep(containerPath, ChildrenVersion.of(stat), sorted, System.nanoTime());
        }
        return sorted;
    }

    /** The entries of a batch of znodes under a container, read with pipelined background reads. */
    private List<MetadataEntry> readAll(String containerPath, List<String> batch, String what) {
        List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(batch.size());
        for (String name : batch) {
            reads.add(session.getDataInBackground(containerPath + "/" + name));
        }
        List<MetadataEntry> entries = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            String name = batch.get(i);
            CuratorEvent event = session.await(reads.get(i), "list", what);
            KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
            if (code == KeeperException.Code.NONODE) {
                continue; // deleted since getChildren
            }
            if (code != KeeperException.Code.OK) {
                throw session.failure("list", what, KeeperException.create(code, containerPath + "/" + name));
            }
            entries.add(new MetadataEntry(KeyEncoding.decode(name), ZooKeeperLayout.data(event.getData()),
                    new MetadataVersion(event.getStat().getVersion())));
        }
        return entries;
    }

    /** Whether a child of a container znode is an encoded key (someone else's znode is skipped, and logged). */
    private boolean isHybrisKey(String containerPath, String name) {
        try {
            KeyEncoding.decode(name);
            return true;
        } catch (IllegalArgumentException foreign) {
            LOG.warn("{}: skipping znode {}/{}: not a Hybris key ({})", description, containerPath, name,
                    foreign.getMessage());
            return false;
        }
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        boolean began = deadline.begin();
        try {
            writes.write(List.of(update));
        } finally {
            deadline.end(began);
        }
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        boolean began = deadline.begin();
        try {
            writes.write(updates);
        } finally {
            deadline.end(began);
        }
    }

    /**
     * connect-timeout + operation-timeout + request-timeout, plus 1 s for scheduling: a read, a watched read or
     * a conditional update ends within it, answered or failed, whatever happens to the connection (see
     * {@code CallDeadline}); so Hybris runs these calls on the caller's thread when the call's deadline leaves
     * more. Listings and the change log are not bounded this way (Hybris runs listings on its own threads).
     */
    @Override
    public Optional<Duration> callTimeBound() {
        return Optional.of(deadline.bound());
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
    public List<String> containers() {
        session.checkOpen();
        try {
            session.beforeRead();
            return client.getChildren().forPath(layout.root()).stream()
                    .filter(name -> !name.startsWith(".")) // the store's own nodes, e.g. .sync
                    .sorted()
                    .toList();
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw session.failure("list containers", layout.root(), e);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        changeLog.close();
        session.close();
    }

    @Override
    public String toString() {
        return "ZooKeeperMetadataStore[" + description + "]";
    }

    /** The Curator client, for tests that inject faults (session expiry). */
    CuratorFramework curator() {
        return client;
    }

    /** The change logs, for tests. */
    ZooKeeperChangeLog changeLog() {
        return changeLog;
    }

    /** The session, for tests that build a part of the store on it. */
    ZooKeeperSession session() {
        return session;
    }

    /**
     * Configures and connects a {@link ZooKeeperMetadataStore}; the defaults and meaning of each setting are those
     * of the option of the same name ({@link ZooKeeperMetadataStoreProvider#OPTIONS}). Not thread-safe;
     * {@link #build()} validates every setting (messages name the option) and blocks until connected.
     */
    public static final class Builder {
        String connect;
        String root = ZooKeeperMetadataStoreProvider.ROOT.defaultValue().orElseThrow();
        ReadMode readMode = ReadMode.SYNC;
        Duration sessionTimeout = ZooKeeperMetadataStoreProvider.SESSION_TIMEOUT.defaultValue().orElseThrow();
        Duration connectTimeout = ZooKeeperMetadataStoreProvider.CONNECT_TIMEOUT.defaultValue().orElseThrow();
        Duration operationTimeout;
        Duration requestTimeout = ZooKeeperMetadataStoreProvider.REQUEST_TIMEOUT.defaultValue().orElseThrow();
        Duration startTimeout = ZooKeeperMetadataStoreProvider.START_TIMEOUT.defaultValue().orElseThrow();
        String digest;
        long maxResponseSize = ZooKeeperMetadataStoreProvider.MAX_RESPONSE_SIZE.defaultValue().orElseThrow();
        long maxRequestSize = ZooKeeperMetadataStoreProvider.MAX_REQUEST_SIZE.defaultValue().orElseThrow();
        int changesRetention = ZooKeeperMetadataStoreProvider.CHANGES_RETENTION.defaultValue().orElseThrow();
        Function<String, String> keyNames = name -> name;
        String description;
        AutoCloseable owned;

        private Builder() {
        }

        /** The ensemble's connect string, e.g. {@code zk1:2181,zk2:2181,zk3:2181}. Required. */
        public Builder connect(String connect) {
            this.connect = connect;
            return this;
        }

        /** The absolute znode path holding all metadata, without trailing slash; default {@code /hybris}. */
        public Builder root(String root) {
            this.root = root;
            return this;
        }

        /** How reads are ordered against writes; default {@link ReadMode#SYNC}. */
        public Builder readMode(ReadMode readMode) {
            this.readMode = Objects.requireNonNull(readMode, "readMode");
            return this;
        }

        /** The ZooKeeper session timeout; default 30 s. */
        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
            return this;
        }

        /** How long a call waits for a connection before its first attempt; default 10 s. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /**
         * As {@link #connectTimeout(Duration)}.
         *
         * @deprecated the option is now {@code connect-timeout}, as for every store and driver; use
         *             {@link #connectTimeout(Duration)}
         */
        @Deprecated
        public Builder connectionTimeout(Duration connectionTimeout) {
            return connectTimeout(connectionTimeout);
        }

        /** How long a call keeps retrying after connection loss; default the connect timeout. */
        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
            return this;
        }

        /**
         * How long one request waits for its answer on a connected session (ZooKeeper's
         * {@code zookeeper.request.timeout}); default 5 s. With the connect and operation timeouts it bounds a
         * call ({@link ZooKeeperMetadataStore#callTimeBound()}).
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        /** How long {@link #build()} waits for the first connection; default 15 s. */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /** {@code user:password} for ZooKeeper's digest scheme and creator-only ACLs; null for none. */
        public Builder digest(String digest) {
            this.digest = digest;
            return this;
        }

        /**
         * The largest response this client accepts, in bytes (ZooKeeper's client-side {@code jute.maxbuffer}),
         * 1 MiB to 1 GiB; default 64 MiB. A container's key listing is one response of about 4 bytes plus the
         * encoded key per key.
         */
        public Builder maxResponseSize(long maxResponseSize) {
            this.maxResponseSize = maxResponseSize;
            return this;
        }

        /**
         * The largest request the servers accept, in bytes: their {@code jute.maxbuffer}, 4 KiB to 1 GiB; default
         * 1,048,575 (ZooKeeper's default). A larger update is refused with
         * {@link io.hybris.InvalidRequestException} before it is sent.
         */
        public Builder maxRequestSize(long maxRequestSize) {
            this.maxRequestSize = maxRequestSize;
            return this;
        }

        /** How many commits each container's change log keeps, 1 to 50,000; default 20,000. */
        public Builder changesRetention(int changesRetention) {
            this.changesRetention = changesRetention;
            return this;
        }

        /** Names options in messages as full property keys (used by the providers). */
        Builder keyNames(Function<String, String> keyNames) {
            this.keyNames = keyNames;
            return this;
        }

        /** Replaces "ZooKeeper at &lt;connect&gt;" in {@link #describe()}. */
        Builder description(String description) {
            this.description = description;
            return this;
        }

        /** Something the store closes after its client, e.g. an embedded server. */
        Builder owning(AutoCloseable owned) {
            this.owned = owned;
            return this;
        }

        /** Checks every setting except {@code connect}. */
        void validate() {
            ZooKeeperSettings.of(this, false);
        }

        /**
         * Validates the settings, connects and makes sure the root exists.
         *
         * @throws HybrisConfigurationException naming the option that is missing or invalid
         * @throws MetadataUnavailableException if no connection is made within the start timeout (the message
         *                                      names the connect string and the timeout)
         * @throws MetadataStoreException       if the root cannot be created (e.g. denied by an ACL)
         */
        public ZooKeeperMetadataStore build() {
            ZooKeeperSettings settings = ZooKeeperSettings.of(this, true);
            return new ZooKeeperMetadataStore(settings, ZooKeeperSession.open(settings));
        }
    }

    /** Which set of children a container znode has: the znode ({@code czxid}) and its children's version. */
    private record ChildrenVersion(long czxid, int cversion) {
        static ChildrenVersion of(Stat stat) {
            return new ChildrenVersion(stat.getCzxid(), stat.getCversion());
        }
    }
}
