package io.hybris.rmds.zookeeper;

import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.KeyEncoding;
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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * {@link #conditionalUpdateAll} is one {@code multi} transaction. {@code <root>/.sync} is this store's own node
 * for the {@code quorum-write} read mode; it can never clash with a container, whose names start with a letter
 * or digit.
 *
 * <h2>Options</h2>
 * <table>
 * <caption>Options (property suffixes after {@code hybris.rmds.zookeeper.})</caption>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code connect}</td><td>(required)</td><td>the ensemble, e.g. {@code zk1:2181,zk2:2181,zk3:2181}
 *   (a chroot suffix is allowed)</td></tr>
 * <tr><td>{@code root}</td><td>{@code /hybris}</td><td>absolute znode path under which all metadata lives, no
 *   trailing slash; created (with its parents) if missing</td></tr>
 * <tr><td>{@code read-mode}</td><td>{@code sync}</td><td>{@code sync}: {@code sync()} then {@code getData},
 *   linearizable as in the paper; {@code quorum-write}: a write to {@code <root>/.sync} through the leader
 *   before each read, which orders the read after every write completed before it (one more disk write per
 *   read); {@code local}: a plain read from the connected server, fast but possibly stale, so GET may return an
 *   older value. The atomic update and the version check are linearizable in every mode.</td></tr>
 * <tr><td>{@code session-timeout}</td><td>30s</td><td>ZooKeeper session timeout (the server clamps it to its
 *   2..20 ticks)</td></tr>
 * <tr><td>{@code connection-timeout}</td><td>10s</td><td>how long a call waits for a connection before its
 *   first attempt</td></tr>
 * <tr><td>{@code operation-timeout}</td><td>= connection-timeout</td><td>how long a call keeps retrying after a
 *   connection loss; a call against an unreachable ensemble fails with
 *   {@link MetadataUnavailableException} after about connection-timeout + operation-timeout</td></tr>
 * <tr><td>{@code start-timeout}</td><td>15s</td><td>how long {@link Builder#build()} waits for the first
 *   connection</td></tr>
 * <tr><td>{@code digest}</td><td>(none)</td><td>{@code user:password}: the client authenticates with
 *   ZooKeeper's {@code digest} scheme and every node it creates under the root gets an ACL granting all
 *   permissions to that identity only, so other identities can neither read nor write the metadata. A secret:
 *   set it through the environment variable {@code HYBRIS_RMDS_ZOOKEEPER_DIGEST}.</td></tr>
 * </table>
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
    private static final byte[] EMPTY = new byte[0];
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
            for (ReadMode m : values()) {
                if (m.optionValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return m;
                }
            }
            throw new HybrisConfigurationException(key + "=" + value
                    + " is not a read mode; use sync (linearizable, default), quorum-write (linearizable, one"
                    + " more write per read) or local (fast, may be stale)");
        }

        @Override
        public String toString() {
            return optionValue;
        }
    }

    private final CuratorFramework client;
    private final String root;
    private final String syncPath;
    private final ReadMode readMode;
    private final Duration connectionTimeout;
    private final Duration operationTimeout;
    private final long backgroundWaitMs;
    private final String digestUser;
    private final String digestKey;
    private final String description;
    private final AutoCloseable owned;
    private final Set<String> knownContainers = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private ZooKeeperMetadataStore(Builder b, CuratorFramework client) {
        this.client = client;
        this.root = b.root;
        this.syncPath = b.root + "/.sync";
        this.readMode = b.readMode;
        this.connectionTimeout = b.connectionTimeout;
        this.operationTimeout = b.effectiveOperationTimeout();
        this.backgroundWaitMs = connectionTimeout.plus(operationTimeout).plusSeconds(2).toMillis();
        this.digestUser = b.digest == null ? null : b.digest.substring(0, b.digest.indexOf(':'));
        this.digestKey = b.keyNames.apply("digest");
        String where = b.description != null ? b.description : "ZooKeeper at " + b.connect;
        this.description = where + ", root " + b.root + ", read-mode " + b.readMode;
        this.owned = b.owned;
    }

    /** A builder with the defaults above; {@link Builder#connect(String)} is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Optional<VersionedValue> read(MetadataKey key) {
        checkOpen();
        String path = path(key);
        if (readMode == ReadMode.SYNC) {
            Optional<Optional<VersionedValue>> fast = pipelinedSyncRead(path);
            if (fast.isPresent()) {
                return fast.get();
            }
        }
        try {
            beforeRead();
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return Optional.of(versioned(data, stat));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw failure("read", key.toString(), e);
        }
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        Objects.requireNonNull(onChange, "onChange");
        checkOpen();
        String path = path(key);
        OneShotWatch watch = new OneShotWatch(path, onChange);
        try {
            beforeRead();
            for (int attempt = 0; attempt < MAX_WATCH_ATTEMPTS; attempt++) {
                try {
                    Stat stat = new Stat();
                    byte[] data = client.getData().storingStatIn(stat).usingWatcher(watch).forPath(path);
                    return new WatchedRead(Optional.of(versioned(data, stat)), watch);
                } catch (KeeperException.NoNodeException missing) {
                    // getData sets no watch on a missing node; an exists watch fires when it is created
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
            throw failure("read", key.toString(), e);
        }
    }

    @Override
    public MetadataPage list(String container, String prefix, String startAfter, int limit) {
        Objects.requireNonNull(container, "container");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        checkOpen();
        String containerPath = containerPath(container);
        String what = "container " + container;
        List<String> children;
        try {
            beforeRead();
            children = client.getChildren().forPath(containerPath);
        } catch (KeeperException.NoNodeException e) {
            return new MetadataPage(List.of(), false);
        } catch (Exception e) {
            throw failure("list", what, e);
        }
        String encodedPrefix = prefix == null ? "" : KeyEncoding.encode(prefix);
        String encodedAfter = startAfter == null ? null : KeyEncoding.encode(startAfter);
        List<String> candidates = children.stream()
                .filter(name -> name.startsWith(encodedPrefix))
                .filter(name -> encodedAfter == null || name.compareTo(encodedAfter) > 0)
                .filter(name -> isHybrisKey(containerPath, name))
                .sorted()
                .toList();

        List<MetadataEntry> entries = new ArrayList<>();
        int next = 0;
        while (entries.size() < limit && next < candidates.size()) {
            int n = Math.min(Math.min(limit - entries.size(), candidates.size() - next), MAX_PIPELINED_READS);
            List<String> batch = candidates.subList(next, next + n);
            next += n;
            List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(n);
            for (String name : batch) {
                reads.add(getDataInBackground(containerPath + "/" + name));
            }
            for (int i = 0; i < n; i++) {
                String name = batch.get(i);
                CuratorEvent event = await(reads.get(i), "list", what);
                KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
                if (code == KeeperException.Code.NONODE) {
                    continue; // deleted since getChildren
                }
                if (code != KeeperException.Code.OK) {
                    throw failure("list", what, KeeperException.create(code, containerPath + "/" + name));
                }
                byte[] data = event.getData() == null ? EMPTY : event.getData();
                entries.add(new MetadataEntry(KeyEncoding.decode(name), data,
                        new MetadataVersion(event.getStat().getVersion())));
            }
        }
        return new MetadataPage(entries, next < candidates.size());
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
        checkOpen();
        MetadataKey key = update.key();
        String path = path(key);
        MetadataVersion expected = update.expectedVersion();
        try {
            if (expected.isAbsent()) {
                client.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                        .forPath(path, update.value());
                knownContainers.add(key.container());
            } else {
                client.setData().withVersion(zkVersion(key, expected)).forPath(path, update.value());
            }
        } catch (KeeperException.NodeExistsException e) {
            throw new VersionConflictException(key + " already exists (expected ABSENT)", e);
        } catch (KeeperException.BadVersionException e) {
            throw new VersionConflictException(key + " is no longer at version " + expected, e);
        } catch (KeeperException.NoNodeException e) {
            throw new VersionConflictException(key + " does not exist (expected version " + expected + ")", e);
        } catch (VersionConflictException e) {
            throw e;
        } catch (Exception e) {
            throw failure("conditional update", key.toString(), e);
        }
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        checkOpen();
        Set<MetadataKey> seen = new HashSet<>();
        for (MetadataUpdate u : updates) {
            if (!seen.add(u.key())) {
                throw new IllegalArgumentException("duplicate key in atomic update: " + u.key());
            }
        }
        if (updates.isEmpty()) {
            return;
        }
        if (updates.size() == 1) {
            conditionalUpdate(updates.get(0));
            return;
        }
        String what = updates.size() + " keys (" + updates.get(0).key() + ", ...)";
        for (int attempt = 0; ; attempt++) {
            try {
                ensureContainers(updates);
                List<CuratorOp> ops = new ArrayList<>(updates.size());
                for (MetadataUpdate u : updates) {
                    String path = path(u.key());
                    if (u.expectedVersion().isAbsent()) {
                        ops.add(client.transactionOp().create().withMode(CreateMode.PERSISTENT)
                                .forPath(path, u.value()));
                    } else {
                        ops.add(client.transactionOp().setData().withVersion(zkVersion(u.key(), u.expectedVersion()))
                                .forPath(path, u.value()));
                    }
                }
                client.transaction().forOperations(ops);
                return;
            } catch (VersionConflictException e) {
                throw e;
            } catch (KeeperException e) {
                int failed = failedOp(e);
                MetadataUpdate u = failed < 0 ? null : updates.get(failed);
                KeeperException.Code code = e.code();
                if (u != null && u.expectedVersion().isAbsent() && code == KeeperException.Code.NONODE
                        && attempt == 0) {
                    knownContainers.remove(u.key().container()); // container znode removed behind our back
                    continue;
                }
                if (code == KeeperException.Code.NODEEXISTS || code == KeeperException.Code.BADVERSION
                        || code == KeeperException.Code.NONODE) {
                    String why = u == null ? "a version check failed (" + code + ")"
                            : code == KeeperException.Code.NODEEXISTS ? u.key() + " already exists"
                            : code == KeeperException.Code.NONODE ? u.key() + " does not exist"
                            : u.key() + " is no longer at version " + u.expectedVersion();
                    throw new VersionConflictException("atomic update of " + updates.size()
                            + " keys aborted, nothing written: " + why, e);
                }
                throw failure("atomic update", what, e);
            } catch (Exception e) {
                throw failure("atomic update", what, e);
            }
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public List<String> containers() {
        checkOpen();
        try {
            beforeRead();
            return client.getChildren().forPath(root).stream()
                    .filter(name -> !name.startsWith(".")) // the store's own nodes, e.g. .sync
                    .sorted()
                    .toList();
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            throw failure("list containers", root, e);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            client.close();
        } finally {
            if (owned != null) {
                try {
                    owned.close();
                } catch (Exception e) {
                    LOG.warn("{}: closing {} failed", description, owned, e);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperMetadataStore[" + description + "]";
    }

    /** The Curator client, for tests that inject faults (session expiry). */
    CuratorFramework curator() {
        return client;
    }

    // ------------------------------------------------------------------ internals

    private static ZooKeeperMetadataStore start(Builder b) {
        CuratorFrameworkFactory.Builder cb = CuratorFrameworkFactory.builder()
                .connectString(b.connect)
                .sessionTimeoutMs(millis(b.sessionTimeout))
                .connectionTimeoutMs(millis(b.connectionTimeout))
                .retryPolicy(new BoundedRetryPolicy(b.effectiveOperationTimeout()))
                .ensembleTracker(false);
        if (b.digest != null) {
            cb.authorization("digest", b.digest.getBytes(StandardCharsets.UTF_8))
                    .aclProvider(new DigestAclProvider(b.root, digestAcl(b.digest)));
        }
        CuratorFramework client = cb.build();
        ZooKeeperMetadataStore store = new ZooKeeperMetadataStore(b, client);
        client.getConnectionStateListenable().addListener((c, state) -> store.connectionStateChanged(state));
        client.start();
        try {
            if (!client.blockUntilConnected(millis(b.startTimeout), TimeUnit.MILLISECONDS)) {
                throw new MetadataUnavailableException("cannot reach ZooKeeper at " + b.connect + " within "
                        + format(b.startTimeout) + " (" + b.keyNames.apply("start-timeout") + "); check "
                        + b.keyNames.apply("connect") + " and that the ensemble is running");
            }
            store.ensureNode(b.root);
            if (b.readMode == ReadMode.QUORUM_WRITE) {
                store.ensureNode(store.syncPath);
            }
            return store;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new MetadataUnavailableException("interrupted while connecting to ZooKeeper at " + b.connect, e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private void connectionStateChanged(ConnectionState state) {
        switch (state) {
            case SUSPENDED -> LOG.warn("{}: connection to ZooKeeper suspended; calls retry for up to {}",
                    description, format(operationTimeout));
            case LOST -> LOG.warn("{}: ZooKeeper session lost; reconnecting with a new session, calls fail with"
                    + " MetadataUnavailableException until then", description);
            case RECONNECTED -> LOG.info("{}: reconnected to ZooKeeper", description);
            case READ_ONLY -> LOG.warn("{}: connected to a read-only ZooKeeper server", description);
            case CONNECTED -> LOG.debug("{}: connected to ZooKeeper", description);
            default -> LOG.debug("{}: connection state {}", description, state);
        }
    }

    /**
     * Creates a persistent znode (and its parents) unless it exists. A node this identity may not read exists
     * too (ZooKeeper 3.9 checks READ on exists): the store starts, and calls it is denied fail naming the ACL.
     */
    private void ensureNode(String path) {
        try {
            if (client.checkExists().forPath(path) == null) {
                client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, EMPTY);
            }
        } catch (KeeperException.NodeExistsException e) {
            // created concurrently by another client: fine
        } catch (KeeperException.NoAuthException e) {
            if (!path.equals(e.getPath())) {
                throw failure("creation", "znode " + path, e);
            }
            LOG.warn("{}: {} exists but its ACL denies this client ({}); calls on it will fail",
                    description, path, digestUser == null ? "no digest identity" : "digest user " + digestUser);
        } catch (Exception e) {
            throw failure("creation", "znode " + path, e);
        }
    }

    private void ensureContainers(List<MetadataUpdate> updates) throws Exception {
        for (MetadataUpdate u : updates) {
            String container = u.key().container();
            if (u.expectedVersion().isAbsent() && !knownContainers.contains(container)) {
                client.createContainers(containerPath(container));
                knownContainers.add(container);
            }
        }
    }

    /**
     * The {@code sync} + {@code getData} read in one round trip: both requests go out back to back on the
     * session's connection, and ZooKeeper serves a session's requests in order, so the read reflects every write
     * committed before the sync (the ZooKeeper paper's "sync followed by read"; ZooKeeper's own {@code sync} is
     * asynchronous for this reason). The read counts only if the sync succeeded; on any failure (connection
     * loss, an expired session, no connection at the moment) this returns empty and the caller takes the path
     * with Curator's retries, which waits for the sync before reading.
     */
    private Optional<Optional<VersionedValue>> pipelinedSyncRead(String path) {
        if (!client.getZookeeperClient().isConnected()) {
            return Optional.empty(); // the read with retries waits for the connection, once
        }
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            CompletableFuture<Integer> synced = new CompletableFuture<>();
            zk.sync(root, (rc, p, ctx) -> synced.complete(rc), null);
            Optional<VersionedValue> value;
            try {
                Stat stat = new Stat();
                value = Optional.of(versioned(zk.getData(path, false, stat), stat));
            } catch (KeeperException.NoNodeException e) {
                value = Optional.empty();
            }
            // answered before the read's reply on the same connection, so normally complete already
            Integer rc = synced.get(backgroundWaitMs, TimeUnit.MILLISECONDS);
            return rc == KeeperException.Code.OK.intValue() ? Optional.of(value) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("read of " + path + " on " + description + " interrupted", e);
        } catch (Exception e) {
            return Optional.empty(); // the read with retries decides (and names any lasting failure)
        }
    }

    private void beforeRead() throws Exception {
        switch (readMode) {
            case SYNC -> {
                CompletableFuture<CuratorEvent> synced = new CompletableFuture<>();
                client.sync().inBackground((c, event) -> synced.complete(event)).forPath(root);
                CuratorEvent event = await(synced, "sync", root);
                if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
                    throw KeeperException.create(KeeperException.Code.get(event.getResultCode()), root);
                }
            }
            case QUORUM_WRITE -> client.setData().forPath(syncPath, EMPTY);
            case LOCAL -> {
                // a plain read from the connected server
            }
            default -> throw new AssertionError(readMode);
        }
    }

    private CompletableFuture<CuratorEvent> getDataInBackground(String path) {
        CompletableFuture<CuratorEvent> result = new CompletableFuture<>();
        try {
            client.getData().inBackground((c, event) -> result.complete(event)).forPath(path);
        } catch (Exception e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** Waits for a background operation, which Curator bounds by the connection and retry timeouts. */
    private <T> T await(CompletableFuture<T> future, String operation, String what) {
        try {
            return future.get(backgroundWaitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                    + " interrupted", e);
        } catch (TimeoutException e) {
            throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                    + " got no answer within " + format(Duration.ofMillis(backgroundWaitMs)), e);
        } catch (ExecutionException e) {
            throw failure(operation, what, e.getCause() instanceof Exception x ? x : e);
        }
    }

    /** Maps a ZooKeeper or Curator failure to the exception the SPI promises. */
    private MetadataStoreException failure(String operation, String what, Exception e) {
        if (e instanceof MetadataStoreException m) {
            return m;
        }
        String prefix = operation + " of " + what + " on " + description;
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return new MetadataUnavailableException(prefix + " interrupted; a write's outcome is unknown", e);
        }
        if (e instanceof KeeperException ke) {
            switch (ke.code()) {
                case CONNECTIONLOSS, SESSIONEXPIRED, SESSIONMOVED, OPERATIONTIMEOUT, REQUESTTIMEOUT, THROTTLEDOP,
                        NEWCONFIGNOQUORUM, RECONFIGINPROGRESS:
                    return new MetadataUnavailableException(prefix + " failed: ZooKeeper unavailable (" + ke.code()
                            + ") after waiting " + format(connectionTimeout) + " for a connection and retrying for "
                            + format(operationTimeout) + "; a write's outcome is unknown", e);
                case NOAUTH, AUTHFAILED:
                    return new MetadataStoreException(prefix + " denied by the ZooKeeper ACL"
                            + (ke.getPath() == null ? "" : " on " + ke.getPath()) + " (" + ke.code() + "): this client "
                            + (digestUser == null ? "has no digest identity (" + digestKey + " is not set)"
                            : "authenticates as digest user '" + digestUser + "' (" + digestKey + ")")
                            + "; use the digest of the identity that created the metadata", e);
                default:
                    return new MetadataStoreException(prefix + " failed: " + ke.code()
                            + (ke.getPath() == null ? "" : " on " + ke.getPath()), e);
            }
        }
        if (e instanceof IllegalStateException && closed.get()) {
            return new MetadataStoreException(prefix + " failed: the store is closed", e);
        }
        return new MetadataStoreException(prefix + " failed: " + e, e);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new MetadataStoreException(description + " is closed");
        }
    }

    private String containerPath(String container) {
        return root + "/" + container;
    }

    private String path(MetadataKey key) {
        return containerPath(key.container()) + "/" + KeyEncoding.encode(key.key());
    }

    private static VersionedValue versioned(byte[] data, Stat stat) {
        return new VersionedValue(data == null ? EMPTY : data, new MetadataVersion(stat.getVersion()));
    }

    /** The znode version to expect; a value no znode can have is a conflict, never {@code -1} ("any"). */
    private static int zkVersion(MetadataKey key, MetadataVersion v) throws VersionConflictException {
        if (v.value() < 0 || v.value() > Integer.MAX_VALUE) {
            throw new VersionConflictException(key + ": version " + v + " is not a ZooKeeper znode version");
        }
        return (int) v.value();
    }

    /** Index of the operation that failed a multi, or -1. */
    private static int failedOp(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results == null) {
            return -1;
        }
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult err
                    && err.getErr() != KeeperException.Code.OK.intValue()
                    && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                return i;
            }
        }
        return -1;
    }

    private static List<ACL> digestAcl(String digest) {
        try {
            // not List.of: ZooKeeper checks acl.contains(null), which List.of rejects with an exception
            return Collections.singletonList(new ACL(ZooDefs.Perms.ALL,
                    new Id("digest", DigestAuthenticationProvider.generateDigest(digest))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1 for ZooKeeper's digest scheme", e);
        }
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** Digest ACL on the root and everything below it; Curator's default (open) on the root's ancestors. */
    private static final class DigestAclProvider implements ACLProvider {
        private final String root;
        private final List<ACL> acl;

        DigestAclProvider(String root, List<ACL> acl) {
            this.root = root;
            this.acl = acl;
        }

        @Override
        public List<ACL> getDefaultAcl() {
            return acl;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            boolean ours = path.equals(root) || path.startsWith(root + "/");
            return ours ? acl : ZooDefs.Ids.OPEN_ACL_UNSAFE;
        }
    }

    /** A data (or exists) watch that runs its callback at most once; cancelling disarms it. */
    private final class OneShotWatch implements Watcher, Subscription {
        private final String path;
        private final Runnable onChange;
        private final AtomicBoolean done = new AtomicBoolean();

        OneShotWatch(String path, Runnable onChange) {
            this.path = path;
            this.onChange = onChange;
        }

        @Override
        public void process(WatchedEvent event) {
            switch (event.getType()) {
                case NodeCreated, NodeDataChanged, NodeDeleted -> fire();
                case None -> {
                    if (event.getState() == Event.KeeperState.Expired) {
                        fire(); // the server dropped the watch with the session: the key may have changed
                    }
                }
                default -> {
                    // watch removed, children changed: not a change of this key's value
                }
            }
        }

        private void fire() {
            if (done.compareAndSet(false, true)) {
                try {
                    onChange.run();
                } catch (RuntimeException e) {
                    LOG.warn("{}: watch callback for {} threw", description, path, e);
                }
            }
        }

        @Override
        public void cancel() {
            if (!done.compareAndSet(false, true) || closed.get()) {
                return;
            }
            try {
                client.watchers().remove(this).ofType(WatcherType.Any).locally()
                        .inBackground((c, event) -> LOG.trace("{}: removed watch on {}: rc {}", description, path,
                                event.getResultCode()))
                        .forPath(path);
            } catch (Exception e) {
                LOG.debug("{}: could not remove watch on {}", description, path, e);
            }
        }
    }

    /**
     * Configures and connects a {@link ZooKeeperMetadataStore}. Not thread-safe; {@link #build()} validates every
     * setting (messages name the option) and blocks until connected.
     */
    public static final class Builder {
        private String connect;
        private String root = "/hybris";
        private ReadMode readMode = ReadMode.SYNC;
        private Duration sessionTimeout = Duration.ofSeconds(30);
        private Duration connectionTimeout = Duration.ofSeconds(10);
        private Duration operationTimeout;
        private Duration startTimeout = Duration.ofSeconds(15);
        private String digest;
        private Function<String, String> keyNames = name -> name;
        private String description;
        private AutoCloseable owned;

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
        public Builder connectionTimeout(Duration connectionTimeout) {
            this.connectionTimeout = connectionTimeout;
            return this;
        }

        /** How long a call keeps retrying after connection loss; default the connection timeout. */
        public Builder operationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
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

        private Duration effectiveOperationTimeout() {
            return operationTimeout != null ? operationTimeout : connectionTimeout;
        }

        /** Checks every setting except {@code connect}. */
        void validate() {
            if (root == null || root.isEmpty()) {
                throw new HybrisConfigurationException(keyNames.apply("root") + " must not be empty; use an"
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
                throw new HybrisConfigurationException(keyNames.apply("root") + "=" + root + " is not a valid root: "
                        + problem + "; use an absolute znode path without a trailing slash, e.g. /hybris");
            }
            positive("session-timeout", sessionTimeout);
            positive("connection-timeout", connectionTimeout);
            positive("operation-timeout", effectiveOperationTimeout());
            positive("start-timeout", startTimeout);
            if (digest != null) {
                int colon = digest.indexOf(':');
                if (colon <= 0) {
                    throw new HybrisConfigurationException(keyNames.apply("digest")
                            + " must have the form user:password (value not shown: it is a secret)");
                }
            }
        }

        private void positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new HybrisConfigurationException(keyNames.apply(name) + "=" + d + " must be a positive duration");
            }
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
            if (connect == null || connect.isBlank()) {
                throw new HybrisConfigurationException(keyNames.apply("connect")
                        + " is required: the ZooKeeper ensemble, e.g. zk1:2181,zk2:2181,zk3:2181");
            }
            connect = connect.trim();
            validate();
            return start(this);
        }
    }
}
