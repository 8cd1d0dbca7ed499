/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.MetadataStoreException;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.support.ConfigValues;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.Backgroundable;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.Pathable;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The connection side of a {@link ZooKeeperMetadataStore}: the Curator client (retry policy, request timeout,
 * digest ACLs), the per-call deadline ({@link CallDeadline}), the wait for the first connection, the read-mode barrier before reads, background reads and the mapping of
 * ZooKeeper and Curator failures to the SPI's exceptions. Thread-safe.
 */
final class ZooKeeperSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);
    private static final byte[] EMPTY = new byte[0];
    /** How long closing waits for ZooKeeper to close the session before it drops the connection. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(1);
    /** How long closing then waits for the client's threads to stop. */
    private static final Duration CLOSE_AFTER_INTERRUPT = Duration.ofSeconds(5);

    private final ZooKeeperSettings settings;
    private final CuratorFramework client;
    private final String syncPath;
    private final long backgroundWaitMs;
    private final String description;
    private final CallDeadline deadline;
    private final AtomicBoolean closed;

    private ZooKeeperSession(ZooKeeperSettings s, CuratorFramework client, CallDeadline deadline,
                             AtomicBoolean closed) {
        this.settings = s;
        this.client = client;
        this.deadline = deadline;
        this.closed = closed;
        this.syncPath = s.root() + "/.sync";
        this.backgroundWaitMs = s.connectTimeout().plus(s.operationTimeout()).plusSeconds(2).toMillis();
        this.description = s.describe();
    }

    /** Connects (within start-timeout) and makes sure the root (and the sync node) exist. */
    static ZooKeeperSession open(ZooKeeperSettings s) {
        CallDeadline deadline = new CallDeadline(s.connectTimeout(), s.operationTimeout(), s.requestTimeout(),
                s.describe());
        AtomicBoolean closed = new AtomicBoolean();
        // every synchronous request fails with REQUESTTIMEOUT (and drops the connection) after request-timeout
        ZKClientConfig zkConfig = new ZKClientConfig();
        zkConfig.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Long.toString(s.requestTimeout().toMillis()));
        // a response longer than this drops the connection; listings of large containers need more than 1 MiB
        zkConfig.setProperty(ZKConfig.JUTE_MAXBUFFER, Long.toString(s.maxResponseSize()));
        CuratorFrameworkFactory.Builder cb = CuratorFrameworkFactory.builder()
                .connectString(s.connect())
                .sessionTimeoutMs(millis(s.sessionTimeout()))
                .connectionTimeoutMs(millis(s.connectTimeout()))
                .zkClientConfig(zkConfig)
                .retryPolicy(new BoundedRetryPolicy(s.operationTimeout(), deadline, closed::get))
                .ensembleTracker(false);
        if (s.digest() != null) {
            cb.authorization("digest", s.digest().getBytes(StandardCharsets.UTF_8))
                    .aclProvider(new DigestAclProvider(s.root(), digestAcl(s.digest())));
        }
        CuratorFramework client = cb.build();
        ZooKeeperSession session = new ZooKeeperSession(s, client, deadline, closed);
        client.getConnectionStateListenable().addListener((c, state) -> session.connectionStateChanged(state));
        client.start();
        try {
            if (!client.blockUntilConnected(millis(s.startTimeout()), TimeUnit.MILLISECONDS)) {
                throw new MetadataUnavailableException("cannot reach ZooKeeper at " + s.connect() + " within "
                        + ConfigValues.format(s.startTimeout()) + " (" + s.key("start-timeout") + "); check "
                        + s.key("connect") + " and that the ensemble is running");
            }
            session.ensureNode(s.root());
            if (s.readMode() == ZooKeeperMetadataStore.ReadMode.QUORUM_WRITE) {
                session.ensureNode(session.syncPath);
            }
            return session;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new MetadataUnavailableException("interrupted while connecting to ZooKeeper at " + s.connect(), e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The Curator client. */
    CuratorFramework client() {
        return client;
    }

    /** The deadline of the store call running on the current thread. */
    CallDeadline deadline() {
        return deadline;
    }

    /** Whether the store is closed. */
    boolean isClosed() {
        return closed.get();
    }

    /** Throws if the store is closed. */
    void checkOpen() {
        if (closed.get()) {
            throw new MetadataStoreException(description + " is closed");
        }
    }

    private void connectionStateChanged(ConnectionState state) {
        String operationTimeout = ConfigValues.format(settings.operationTimeout());
        switch (state) {
            case SUSPENDED -> LOG.warn("{}: connection to ZooKeeper suspended; calls retry for up to {}",
                    description, operationTimeout);
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
        } catch (KeeperException.NoNodeException e) {
            // creatingParentsIfNeeded makes every parent below the chroot, never the chroot itself
            String connect = settings.connect();
            int slash = connect == null ? -1 : connect.indexOf('/');
            if (slash < 0 || slash == connect.length() - 1) {
                throw failure("creation", "znode " + path, e);
            }
            throw new MetadataStoreException("creation of znode " + path + " on " + description + " failed: the"
                    + " chroot " + connect.substring(slash) + " of " + settings.key("connect") + " does not exist,"
                    + " and a ZooKeeper client cannot create its own chroot; create it first (e.g. zkCli.sh create "
                    + connect.substring(slash) + ") or drop it from " + settings.key("connect"), e);
        } catch (KeeperException.NoAuthException e) {
            if (!path.equals(e.getPath())) {
                throw failure("creation", "znode " + path, e);
            }
            String user = settings.digestUser();
            LOG.warn("{}: {} exists but its ACL denies this client ({}); calls on it will fail",
                    description, path, user == null ? "no digest identity" : "digest user " + user);
        } catch (Exception e) {
            throw failure("creation", "znode " + path, e);
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
    Optional<Optional<VersionedValue>> pipelinedSyncRead(String path) {
        if (!client.getZookeeperClient().isConnected()) {
            return Optional.empty(); // the read with retries waits for the connection, once
        }
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            CompletableFuture<Integer> synced = new CompletableFuture<>();
            zk.sync(settings.root(), (rc, p, ctx) -> synced.complete(rc), null);
            Optional<VersionedValue> value;
            try {
                Stat stat = new Stat();
                value = Optional.of(ZooKeeperLayout.versioned(zk.getData(path, false, stat), stat));
            } catch (KeeperException.NoNodeException e) {
                value = Optional.empty();
            }
            // answered before the read's reply on the same connection, so normally complete already
            Integer rc = synced.get(deadline.waitMillis(backgroundWaitMs), TimeUnit.MILLISECONDS);
            return rc == KeeperException.Code.OK.intValue() ? Optional.of(value) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("read of " + path + " on " + description + " interrupted", e);
        } catch (Exception e) {
            return Optional.empty(); // the read with retries decides (and names any lasting failure)
        }
    }

    /** Orders the next read after earlier writes, as the read mode says. */
    void beforeRead() throws Exception {
        String root = settings.root();
        switch (settings.readMode()) {
            case SYNC -> {
                CompletableFuture<CuratorEvent> synced = new CompletableFuture<>();
                client.sync().inBackground((c, event) -> synced.complete(event)).forPath(root);
                CuratorEvent event = await(synced, "sync", root);
                if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
                    throw KeeperException.create(KeeperException.Code.get(event.getResultCode()), root);
                }
            }
            case QUORUM_WRITE -> {
                deadline.beforeRequest("sync write", syncPath);
                client.setData().forPath(syncPath, EMPTY);
            }
            case LOCAL -> {
                // a plain read from the connected server
            }
            default -> throw new AssertionError(settings.readMode());
        }
    }

    /** Sends an {@code exists} of {@code path} without waiting for it (pipelined); the event carries its stat. */
    CompletableFuture<CuratorEvent> existsInBackground(String path) {
        return inBackground(client.checkExists(), path);
    }

    /** Starts a {@code getData} in the background. */
    CompletableFuture<CuratorEvent> getDataInBackground(String path) {
        return inBackground(client.getData(), path);
    }

    private static CompletableFuture<CuratorEvent> inBackground(Backgroundable<? extends Pathable<?>> request,
                                                                String path) {
        CompletableFuture<CuratorEvent> result = new CompletableFuture<>();
        try {
            request.inBackground((c, event) -> result.complete(event)).forPath(path);
        } catch (Exception e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * Waits for a background operation, which Curator bounds by the connection and retry timeouts, and at most
     * until the running call's deadline.
     */
    <T> T await(CompletableFuture<T> future, String operation, String what) {
        long waitMs = deadline.waitMillis(backgroundWaitMs);
        try {
            return future.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                    + " interrupted", e);
        } catch (TimeoutException e) {
            throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                    + " got no answer within " + ConfigValues.format(Duration.ofMillis(waitMs)), e);
        } catch (ExecutionException e) {
            throw failure(operation, what, e.getCause() instanceof Exception x ? x : e);
        }
    }

    /** Maps a ZooKeeper or Curator failure to the exception the SPI promises. */
    /**
     * {@link #failure} for a listing of the container znode {@code path}: a lost connection may have been the
     * client refusing a listing larger than {@code max-response-size} (it drops the connection then, and every
     * retry does the same), so the message says how many children the container has, when that can be read,
     * and which option raises the limit.
     */
    MetadataStoreException listingFailure(String what, String path, Exception e) {
        MetadataStoreException failure = failure("list", what, e);
        if (!(e instanceof KeeperException.ConnectionLossException)) {
            return failure;
        }
        String children = "";
        try {
            // a refused response drops the connection and the client reconnects within about a second (ZooKeeper
            // waits up to 1 s at random first); during an outage this waits at most 3 s more
            long waitMs = Math.min(settings.connectTimeout().toMillis(), 3000);
            Stat stat = client.blockUntilConnected((int) waitMs, TimeUnit.MILLISECONDS)
                    ? client.checkExists().forPath(path) : null;
            children = stat == null ? "" : " The container has " + stat.getNumChildren() + " keys.";
        } catch (Exception unreadable) {
            // the count is only a hint
        }
        String option = settings.key(ZooKeeperMetadataStoreProvider.MAX_RESPONSE_SIZE.name());
        return new MetadataUnavailableException(failure.getMessage() + "." + children + " A listing longer than "
                + option + "=" + ConfigValues.formatSize(settings.maxResponseSize()) + " also ends this way (about"
                + " 4 bytes + the encoded key per key): raise it if the container has that many keys", e);
    }

    MetadataStoreException failure(String operation, String what, Exception e) {
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
                            + ") after waiting up to " + ConfigValues.format(settings.connectTimeout())
                            + " for a connection and retrying for up to "
                            + ConfigValues.format(settings.operationTimeout()) + " (each request answered within "
                            + ConfigValues.format(settings.requestTimeout()) + " or timed out)"
                            + "; a write's outcome is unknown", e);
                case NOAUTH, AUTHFAILED:
                    String user = settings.digestUser();
                    String digestKey = settings.key("digest");
                    return new MetadataStoreException(prefix + " denied by the ZooKeeper ACL"
                            + (ke.getPath() == null ? "" : " on " + ke.getPath()) + " (" + ke.code() + "): this client "
                            + (user == null ? "has no digest identity (" + digestKey + " is not set)"
                            : "authenticates as digest user '" + user + "' (" + digestKey + ")")
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

    /** Closes the client ({@link #closeClient}), then what the store owns (an embedded server). Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            closeClient();
        } finally {
            AutoCloseable owned = settings.owned();
            if (owned != null) {
                try {
                    owned.close();
                } catch (Exception e) {
                    LOG.warn("{}: closing {} failed", description, owned, e);
                }
            }
        }
    }

    /**
     * Closes the Curator client within about {@link #CLOSE_GRACE}. ZooKeeper's close sends {@code closeSession} and
     * waits up to request-timeout for its answer, and a call in flight on the session waits as long for its own: from
     * a server that stopped answering, neither would end before then. So the close runs on a thread of its own, which
     * is interrupted if it has not finished within the grace: ZooKeeper then stops waiting for the answer and drops
     * the connection at once, failing the calls in flight (the server expires the session later).
     */
    private void closeClient() {
        Thread closer = new Thread(client::close, "hybris-zookeeper-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_GRACE.toMillis());
            if (closer.isAlive()) {
                LOG.warn("{}: ZooKeeper did not answer the close of the session within {}; dropping the connection",
                        description, ConfigValues.format(CLOSE_GRACE));
                closer.interrupt();
                closer.join(CLOSE_AFTER_INTERRUPT.toMillis());
            }
        } catch (InterruptedException e) {
            closer.interrupt(); // closing interrupted: drop the connection now
            Thread.currentThread().interrupt();
        }
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
}
