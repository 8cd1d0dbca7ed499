package io.hybris.rmds.consul;

import com.fasterxml.jackson.core.type.TypeReference;
import io.hybris.HybrisConfigurationException;
import io.hybris.InvalidRequestException;
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
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.kiwiproject.consul.Consul;
import org.kiwiproject.consul.ConsulException;
import org.kiwiproject.consul.KeyValueClient;
import org.kiwiproject.consul.model.kv.TxError;
import org.kiwiproject.consul.model.kv.TxResponse;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.option.ConsistencyMode;
import org.kiwiproject.consul.option.ImmutablePutOptions;
import org.kiwiproject.consul.option.ImmutableQueryOptions;
import org.kiwiproject.consul.option.PutOptions;
import org.kiwiproject.consul.option.QueryOptions;
import org.kiwiproject.consul.util.Jackson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Pattern;

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
 * {@code cas} operations (index 0 to create), which Consul applies atomically through Raft. {@link #list} lists the
 * keys under {@code <key-prefix>/<c>/<encoded prefix>} (keys only), pages them in encoded-key order and fetches the
 * page's values with read-only transactions of up to 64 {@code get} operations; {@link #containers()} is a
 * key listing of {@code <key-prefix>/} with separator {@code /}.
 *
 * <h2>Options</h2>
 * <table>
 * <caption>Options (property suffixes after {@code hybris.rmds.consul.})</caption>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code address}</td><td>(required)</td><td>{@code host:port} of the Consul agent's HTTP(S) API, normally
 *   the local agent, e.g. {@code 127.0.0.1:8500}</td></tr>
 * <tr><td>{@code key-prefix}</td><td>{@code hybris}</td><td>KV path under which all metadata lives, e.g.
 *   {@code apps/photos/hybris}: segments of {@code [A-Za-z0-9._-]} separated by single slashes, no leading or
 *   trailing slash</td></tr>
 * <tr><td>{@code read-mode}</td><td>{@code consistent}</td><td>Consul's consistency mode for reads, watches and
 *   listings. {@code consistent}: the leader confirms with a quorum that it still leads before answering, so reads
 *   are linearizable (Hybris's guarantees hold). {@code default}: the leader answers from its lease without that
 *   check; after a leader change an old leader may answer for a short window, so a GET may return an older value.
 *   {@code stale}: any server answers, possibly far behind: fastest, not linearizable. Writes (check-and-set and
 *   transactions) go through Raft and are linearizable in every mode.</td></tr>
 * <tr><td>{@code token}</td><td>(none)</td><td>ACL token, sent as the {@code X-Consul-Token} header. A secret: set
 *   it through the environment variable {@code HYBRIS_RMDS_CONSUL_TOKEN}. Hybris needs {@code key} read and
 *   write (and list) on {@code <key-prefix>/}.</td></tr>
 * <tr><td>{@code datacenter}</td><td>the agent's</td><td>the Consul datacenter to address ({@code ?dc=})</td></tr>
 * <tr><td>{@code tls}</td><td>{@code false}</td><td>talk HTTPS to {@code address} (the agent's {@code https}
 *   port); the server certificate is verified, host name included</td></tr>
 * <tr><td>{@code tls-truststore}</td><td>the JDK's</td><td>a PKCS#12 or JKS file with the CA certificates to trust
 *   (needs {@code tls=true})</td></tr>
 * <tr><td>{@code tls-truststore-password}</td><td>(none)</td><td>its password; a secret
 *   ({@code HYBRIS_RMDS_CONSUL_TLS_TRUSTSTORE_PASSWORD})</td></tr>
 * <tr><td>{@code connect-timeout}</td><td>5s</td><td>TCP (and TLS) connect timeout of one request, and how long
 *   sending one request may stall</td></tr>
 * <tr><td>{@code read-timeout}</td><td>8s</td><td>how long one request waits for its answer (a Consul server
 *   holds a request up to 7 s while a leader is elected)</td></tr>
 * <tr><td>{@code operation-timeout}</td><td>10s</td><td>how long a call keeps retrying transient failures
 *   (connection refused or reset, timeouts, HTTP 5xx such as "No cluster leader", HTTP 429); a call against an
 *   unreachable agent fails with {@link MetadataUnavailableException} after about operation-timeout</td></tr>
 * <tr><td>{@code start-timeout}</td><td>15s</td><td>how long {@link Builder#build()} waits for the agent to answer
 *   with a cluster leader</td></tr>
 * <tr><td>{@code watch-wait}</td><td>5m</td><td>the {@code wait} of one blocking query of a watch (1 s to 10 m;
 *   Consul caps it at 10 m): a watch re-issues its query at least this often</td></tr>
 * </table>
 *
 * <h2>Limits</h2>
 * Consul rejects a transaction of more than {@value #MAX_TRANSACTION_OPERATIONS} operations, so
 * {@link #conditionalUpdateAll} of more keys throws {@link InvalidRequestException} before sending anything
 * (nothing is split: a split transaction would not be atomic). Consul limits one value to 512 KiB
 * ({@code limits.kv_max_value_size}) and one transaction request to 512 KiB ({@code limits.txn_max_req_len}) by
 * default; larger requests fail with {@link MetadataStoreException} naming the limit. Hybris metadata is about 50
 * to 200 bytes per key.
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
    private static final Logger LOG = LoggerFactory.getLogger(ConsulMetadataStore.class);

    /** The most operations Consul accepts in one {@code /v1/txn} transaction. */
    public static final int MAX_TRANSACTION_OPERATIONS = 64;

    private static final byte[] EMPTY = new byte[0];
    private static final MediaType JSON = MediaType.get("application/json");
    private static final Pattern PREFIX_SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern DATACENTER = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Duration MAX_WATCH_WAIT = Duration.ofMinutes(10);
    private static final TypeReference<List<Value>> VALUES = new TypeReference<>() { };
    private static final int MAX_DETAIL = 300;

    /** Consul's consistency mode for reads; see the class documentation. */
    public enum ReadMode {
        /** The leader verifies its leadership with a quorum before answering: linearizable. The default. */
        CONSISTENT("consistent", ConsistencyMode.CONSISTENT),
        /** The leader answers from its lease: may be stale for a short window after a leader change. */
        DEFAULT("default", ConsistencyMode.DEFAULT),
        /** Any server answers: fastest, possibly far behind. */
        STALE("stale", ConsistencyMode.STALE);

        private final String optionValue;
        private final ConsistencyMode mode;

        ReadMode(String optionValue, ConsistencyMode mode) {
            this.optionValue = optionValue;
            this.mode = mode;
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
            for (ReadMode m : values()) {
                if (m.optionValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return m;
                }
            }
            throw new HybrisConfigurationException(key + "=" + value
                    + " is not a read mode; use consistent (linearizable, default), default (leader lease, may be"
                    + " stale briefly after a leader change) or stale (any server, may be far behind)");
        }

        @Override
        public String toString() {
            return optionValue;
        }
    }

    private final Consul consul;
    private final KeyValueClient kv;
    private final OkHttpClient http;
    private final OkHttpClient watchHttp;
    private final HttpUrl api;
    private final ScheduledExecutorService timer;
    private final String address;
    private final String prefix;
    private final ReadMode readMode;
    private final String datacenter;
    private final QueryOptions readOptions;
    private final BoundedRetry retry;
    private final Duration operationTimeout;
    private final Duration callTimeBound;
    private final Duration watchWait;
    private final boolean hasToken;
    private final String tokenKey;
    private final String description;
    private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();

    private ConsulMetadataStore(Builder b, Consul consul, OkHttpClient http, HttpUrl api,
                                ScheduledExecutorService timer) {
        this.consul = consul;
        this.kv = consul.keyValueClient();
        this.http = http;
        this.watchHttp = http.newBuilder()
                .readTimeout(b.watchWait.plus(b.watchWait.dividedBy(16)).plus(b.readTimeout))
                .build();
        this.api = api;
        this.timer = timer;
        this.address = b.address;
        this.prefix = b.keyPrefix;
        this.readMode = b.readMode;
        this.datacenter = b.datacenter;
        this.readOptions = ImmutableQueryOptions.builder()
                .consistencyMode(b.readMode.mode)
                .datacenter(Optional.ofNullable(b.datacenter))
                .build();
        this.retry = new BoundedRetry(b.operationTimeout, b.sleeper);
        this.operationTimeout = b.operationTimeout;
        this.callTimeBound = b.operationTimeout.plus(b.connectTimeout.multipliedBy(2)).plus(b.readTimeout);
        this.watchWait = b.watchWait;
        this.hasToken = b.token != null;
        this.tokenKey = b.keyNames.apply("token");
        String where = "Consul at " + b.address + (b.datacenter == null ? "" : " (datacenter " + b.datacenter + ")");
        this.description = where + ", key-prefix " + b.keyPrefix + ", read-mode " + b.readMode;
    }

    /** A builder with the defaults above; {@link Builder#address(String)} is required. */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Optional<VersionedValue> read(MetadataKey key) {
        checkOpen();
        String consulKey = consulKey(key);
        return call("read", key.toString(), () -> kv.getValue(consulKey, readOptions)
                .map(ConsulMetadataStore::versioned));
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        Objects.requireNonNull(onChange, "onChange");
        Optional<VersionedValue> current = read(key);
        Watch watch = new Watch(key, current.map(v -> v.version().value()).orElse(0L), onChange);
        watches.add(watch);
        if (closed.get()) {
            watch.cancel();
            checkOpen();
        }
        watch.poll();
        return new WatchedRead(current, watch);
    }

    @Override
    public MetadataPage list(String container, String prefix, String startAfter, int limit) {
        Objects.requireNonNull(container, "container");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive, was " + limit);
        }
        checkOpen();
        String base = containerPrefix(container);
        String what = "container " + container;
        String encodedPrefix = prefix == null ? "" : KeyEncoding.encode(prefix);
        String encodedAfter = startAfter == null ? null : KeyEncoding.encode(startAfter);
        String listed = base + consulName(encodedPrefix);
        List<String> keys = call("list", what, () -> kv.getKeys(listed, readOptions));
        if (keys.isEmpty()) {
            checkReadable(listed, "list", what);
            return new MetadataPage(List.of(), false);
        }
        // sorted by the encoded key, not by Consul's order: '~' (for '%') sorts differently from '%'
        List<String> candidates = keys.stream()
                .filter(k -> k.startsWith(base))
                .map(k -> k.substring(base.length()))
                .filter(name -> isHybrisKey(base, name))
                .map(ConsulMetadataStore::encodedName)
                .filter(encoded -> encodedAfter == null || encoded.compareTo(encodedAfter) > 0)
                .sorted()
                .toList();

        List<MetadataEntry> entries = new ArrayList<>();
        int next = 0;
        while (entries.size() < limit && next < candidates.size()) {
            int n = Math.min(Math.min(limit - entries.size(), candidates.size() - next), MAX_TRANSACTION_OPERATIONS);
            List<String> batch = candidates.subList(next, next + n);
            next += n;
            for (Value v : getAll(base, batch, what)) {
                entries.add(new MetadataEntry(KeyEncoding.decode(encodedName(v.getKey().substring(base.length()))),
                        v.getValueAsBytes().orElse(EMPTY), new MetadataVersion(v.getModifyIndex())));
            }
        }
        return new MetadataPage(entries, next < candidates.size());
    }

    /** Whether a name under a container is a Hybris key (someone else's entry is skipped, and logged). */
    private boolean isHybrisKey(String base, String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("%")) {
            LOG.warn("{}: skipping Consul key {}{}: not a Hybris key (nested path or '%')", description, base, name);
            return false;
        }
        try {
            KeyEncoding.decode(encodedName(name));
            return true;
        } catch (IllegalArgumentException foreign) {
            LOG.warn("{}: skipping Consul key {}{}: not a Hybris key ({})", description, base, name,
                    foreign.getMessage());
            return false;
        }
    }

    /**
     * The Consul name of an encoded key: {@link KeyEncoding}'s {@code %} written as {@code ~}, which that encoding
     * never emits. Consul (1.22 and later) rejects a KV key whose percent-decoded form contains a space or
     * {@code ..}, so an encoded key such as {@code a%20b} cannot be a Consul key as it is.
     */
    static String consulName(String encoded) {
        return encoded.replace('%', '~');
    }

    /** The inverse of {@link #consulName}. */
    static String encodedName(String consulName) {
        return consulName.replace('~', '%');
    }

    /**
     * The entries of up to 64 keys (given encoded) in one read-only transaction, in the order given; keys deleted
     * since they were listed are left out.
     */
    private List<Value> getAll(String base, List<String> encodedNames, String what) {
        List<String> names = encodedNames.stream().map(ConsulMetadataStore::consulName).toList();
        StringBuilder json = new StringBuilder(names.size() * 64).append('[');
        for (String name : names) {
            json.append(json.length() > 1 ? "," : "").append("{\"KV\":{\"Verb\":\"get\",\"Key\":");
            quote(json, base + name).append("}}");
        }
        json.append(']');
        HttpUrl.Builder url = api.newBuilder().addPathSegment("txn");
        addReadMode(url);
        Request request = new Request.Builder().url(url.build())
                .put(RequestBody.create(json.toString().getBytes(StandardCharsets.UTF_8), JSON)).build();
        Reply reply = call("list", what, () -> execute(request, 200, 409));
        if (reply.code == 200) {
            TxResponse ok = parse(reply, TxResponse.class, "list", what);
            List<Value> values = new ArrayList<>(names.size());
            for (Map<String, Value> result : ok.results()) {
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
        } else {
            // a key was deleted since the listing (Hybris never deletes, but a store may be shared)
            checkTransactionDenied(parse(reply, TxResponse.class, "list", what), "list", what);
        }
        List<Value> values = new ArrayList<>(names.size());
        for (String name : names) {
            call("list", what, () -> kv.getValue(base + name, readOptions)).ifPresent(values::add);
        }
        return values;
    }

    /**
     * Consul filters key listings by ACL without saying so: an empty listing may mean "no keys" or "no permission".
     * A direct read of the listed prefix tells them apart (HTTP 403 if denied, else 404) and throws if denied.
     */
    private void checkReadable(String consulKey, String operation, String what) {
        call(operation, what, () -> kv.getValue(consulKey, readOptions));
    }

    /**
     * A read, conditional update or transaction is one request retried for at most operation-timeout, and the
     * last attempt may take a connect, a send (both bounded by connect-timeout) and a read-timeout: with the
     * defaults 10 s + 5 s + 5 s + 8 s = 28 s, under Hybris's default 30 s deadline, so Hybris runs those calls on
     * its caller's thread.
     */
    @Override
    public Optional<Duration> callTimeBound() {
        return Optional.of(callTimeBound);
    }

    @Override
    public int maxAtomicUpdates() {
        return MAX_TRANSACTION_OPERATIONS;
    }

    @Override
    public List<String> containers() {
        checkOpen();
        String root = prefix + "/";
        List<String> folders = call("list containers", "key-prefix " + prefix,
                () -> kv.getKeys(root, "/", readOptions));
        if (folders.isEmpty()) {
            checkReadable(root, "list containers", "key-prefix " + prefix);
        }
        return folders.stream()
                .filter(k -> k.startsWith(root) && k.endsWith("/") && k.length() > root.length() + 1)
                .map(k -> k.substring(root.length(), k.length() - 1))
                .filter(name -> !name.contains("/"))
                .distinct()
                .sorted()
                .toList();
    }

    // ------------------------------------------------------------------ writes

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        checkOpen();
        MetadataKey key = update.key();
        MetadataVersion expected = update.expectedVersion();
        long cas = casIndex(key, expected);
        String consulKey = consulKey(key);
        PutOptions options = putOptions(cas);
        Boolean written = call("conditional update", key.toString(),
                () -> kv.putValue(consulKey, update.value(), 0L, options));
        if (!Boolean.TRUE.equals(written)) {
            throw new VersionConflictException(expected.isAbsent() ? key + " already exists (expected ABSENT)"
                    : key + " is no longer at version " + expected + " or does not exist");
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
        if (updates.size() > MAX_TRANSACTION_OPERATIONS) {
            throw new InvalidRequestException("atomic update of " + updates.size() + " keys (" + updates.get(0).key()
                    + ", ...) exceeds Consul's limit of " + MAX_TRANSACTION_OPERATIONS + " operations per transaction"
                    + " (/v1/txn) on " + description + "; nothing was written: use at most "
                    + MAX_TRANSACTION_OPERATIONS + " keys per TPUT with the Consul metadata store");
        }
        if (updates.size() == 1) {
            conditionalUpdate(updates.get(0));
            return;
        }
        String what = updates.size() + " keys (" + updates.get(0).key() + ", ...)";
        StringBuilder json = new StringBuilder(updates.size() * 192).append('[');
        Base64.Encoder base64 = Base64.getEncoder();
        for (MetadataUpdate u : updates) {
            json.append(json.length() > 1 ? "," : "").append("{\"KV\":{\"Verb\":\"cas\",\"Key\":");
            quote(json, consulKey(u.key()))
                    .append(",\"Value\":\"").append(base64.encodeToString(u.value()))
                    .append("\",\"Index\":").append(casIndex(u.key(), u.expectedVersion())).append("}}");
        }
        json.append(']');
        HttpUrl.Builder url = api.newBuilder().addPathSegment("txn");
        if (datacenter != null) {
            url.addQueryParameter("dc", datacenter);
        }
        Request request = new Request.Builder().url(url.build())
                .put(RequestBody.create(json.toString().getBytes(StandardCharsets.UTF_8), JSON)).build();
        Reply reply = call("atomic update", what, () -> execute(request, 200, 409));
        if (reply.code == 409) {
            TxResponse failed = parse(reply, TxResponse.class, "atomic update", what);
            checkTransactionDenied(failed, "atomic update", what);
            StringBuilder why = new StringBuilder();
            for (TxError e : failed.errors()) {
                int op = e.opIndex().map(i -> i.intValue()).orElse(-1);
                why.append(why.length() == 0 ? "" : "; ")
                        .append(op >= 0 && op < updates.size() ? updates.get(op).key() + " (expected version "
                                + updates.get(op).expectedVersion() + "): " : "")
                        .append(e.what().orElse("version check failed"));
            }
            throw new VersionConflictException("atomic update of " + updates.size()
                    + " keys aborted, nothing written: " + why);
        }
    }

    private void checkTransactionDenied(TxResponse response, String operation, String what) {
        for (TxError e : response.errors()) {
            String text = e.what().orElse("");
            if (text.toLowerCase(Locale.ROOT).contains("permission denied")) {
                throw denied(operation, what, "transaction error: " + text, null);
            }
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Watch w : watches) {
            w.cancel();
        }
        timer.shutdownNow();
        consul.destroy(); // cancels calls in flight, stops the HTTP threads shared with our OkHttp client
    }

    @Override
    public String toString() {
        return "ConsulMetadataStore[" + description + "]";
    }

    /** The number of watches whose blocking query is still running, for tests. */
    int activeWatches() {
        return watches.size();
    }

    // ------------------------------------------------------------------ internals

    private static ConsulMetadataStore start(Builder b) {
        SSLContext ssl = null;
        X509TrustManager trust = null;
        if (b.tls) {
            trust = trustManager(b);
            try {
                ssl = SSLContext.getInstance("TLS");
                ssl.init(null, new TrustManager[] {trust}, null);
            } catch (GeneralSecurityException e) {
                throw new HybrisConfigurationException("cannot set up TLS for " + b.keyNames.apply("tls") + ": " + e, e);
            }
        }
        String base = (b.tls ? "https://" : "http://") + b.address;
        HttpUrl root = HttpUrl.parse(base);
        if (root == null) {
            throw new HybrisConfigurationException(b.keyNames.apply("address") + "=" + b.address
                    + " is not a valid host:port");
        }
        ExecutorService httpThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemonThreads("hybris-consul-http-"));
        ConnectionPool pool = new ConnectionPool();
        Consul.Builder cb = Consul.builder()
                .withUrl(base)
                .withPing(false)
                .withConnectTimeoutMillis(b.connectTimeout.toMillis())
                .withReadTimeoutMillis(b.readTimeout.toMillis())
                .withWriteTimeoutMillis(b.connectTimeout.toMillis())
                .withExecutorService(httpThreads)
                .withConnectionPool(pool);
        if (b.token != null) {
            cb.withTokenAuth(b.token);
        }
        if (ssl != null) {
            cb.withSslContext(ssl).withTrustManager(trust);
        }
        Consul consul = cb.build();

        Dispatcher dispatcher = new Dispatcher(httpThreads);
        dispatcher.setMaxRequests(Integer.MAX_VALUE);
        dispatcher.setMaxRequestsPerHost(Integer.MAX_VALUE);
        OkHttpClient.Builder hb = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectionPool(pool)
                .connectTimeout(b.connectTimeout)
                .readTimeout(b.readTimeout)
                .writeTimeout(b.connectTimeout);
        if (b.token != null) {
            String token = b.token;
            hb.addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                    .header("X-Consul-Token", token).build()));
        }
        if (ssl != null) {
            hb.sslSocketFactory(ssl.getSocketFactory(), trust);
        }
        OkHttpClient http = hb.build();
        HttpUrl api = root.newBuilder().addPathSegment("v1").build();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemonThreads("hybris-consul-watch-"));
        ConsulMetadataStore store = new ConsulMetadataStore(b, consul, http, api, timer);
        try {
            store.awaitLeader(b);
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Waits until the agent answers {@code /v1/status/leader} with a leader, within the start timeout. */
    private void awaitLeader(Builder b) {
        long deadline = System.nanoTime() + b.startTimeout.toNanos();
        HttpUrl.Builder url = api.newBuilder().addPathSegments("status/leader");
        if (datacenter != null) {
            url.addQueryParameter("dc", datacenter);
        }
        Request request = new Request.Builder().url(url.build()).get().build();
        String last = "no answer";
        for (int attempt = 0; ; attempt++) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            Call call = http.newCall(request);
            call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
            try (Response response = call.execute()) {
                String body = response.body().string().trim();
                if (response.code() == 200 && body.length() > 2) {
                    LOG.debug("{}: cluster leader {}", description, body);
                    return;
                }
                last = response.code() == 200 ? "the agent answers but the cluster has no leader"
                        : "HTTP " + response.code() + ": " + detail(body);
                if (response.code() == 403) {
                    throw denied("start", "status/leader", last, null);
                }
            } catch (InterruptedIOException e) {
                if (!(e instanceof SocketTimeoutException) && Thread.currentThread().isInterrupted()) {
                    throw new MetadataUnavailableException("interrupted while connecting to Consul at " + address, e);
                }
                if (attempt == 0) {
                    last = "no answer: " + e; // else keep the earlier, more telling failure: this attempt was cut short
                }
            } catch (IOException e) {
                last = e.toString();
            }
            try {
                long sleep = Math.min(BoundedRetry.backoffMillis(attempt),
                        TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                if (sleep > 0) {
                    b.sleeper.sleep(sleep);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MetadataUnavailableException("interrupted while connecting to Consul at " + address, e);
            }
        }
        throw new MetadataUnavailableException("cannot reach Consul at " + address
                + (datacenter == null ? "" : " (datacenter " + datacenter + ")") + " with a cluster leader within "
                + format(b.startTimeout) + " (" + b.keyNames.apply("start-timeout") + "): " + last + "; check "
                + b.keyNames.apply("address") + (b.tls ? ", " + b.keyNames.apply("tls") : "")
                + (datacenter == null ? "" : ", " + b.keyNames.apply("datacenter"))
                + " and that the agent is running and its servers have elected a leader");
    }

    private static X509TrustManager trustManager(Builder b) {
        KeyStore store = null;
        if (b.truststore != null) {
            String option = b.keyNames.apply("tls-truststore");
            if (!Files.isRegularFile(b.truststore)) {
                throw new HybrisConfigurationException(option + "=" + b.truststore + " is not a readable file");
            }
            try {
                char[] password = b.truststorePassword == null ? null : b.truststorePassword.toCharArray();
                store = KeyStore.getInstance(b.truststore.toFile(), password);
            } catch (IOException | GeneralSecurityException e) {
                throw new HybrisConfigurationException("cannot load " + option + "=" + b.truststore
                        + " as a PKCS#12 or JKS trust store (wrong " + b.keyNames.apply("tls-truststore-password")
                        + "?): " + e.getMessage(), e);
            }
        }
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    return x;
                }
            }
        } catch (GeneralSecurityException e) {
            throw new HybrisConfigurationException("cannot set up TLS trust for " + b.keyNames.apply("tls") + ": "
                    + e.getMessage(), e);
        }
        throw new HybrisConfigurationException("the JDK offers no X.509 trust manager for " + b.keyNames.apply("tls"));
    }

    private static ThreadFactory daemonThreads(String namePrefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, namePrefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** One HTTP exchange of our own client: status, index header and body. */
    private record Reply(int code, long index, byte[] body) {
    }

    /** A status our caller does not handle, as {@link ConsulException} reports one for the consul-client calls. */
    private static final class StatusException extends IOException {
        private static final long serialVersionUID = 1L;
        private final int code;
        private final String body;

        StatusException(int code, String body) {
            super("HTTP " + code + ": " + detail(body));
            this.code = code;
            this.body = body;
        }
    }

    private Reply execute(Request request, int... accepted) throws IOException {
        try (Response response = http.newCall(request).execute()) {
            byte[] body = response.body().bytes();
            for (int code : accepted) {
                if (response.code() == code) {
                    return new Reply(code, index(response), body);
                }
            }
            throw new StatusException(response.code(), new String(body, StandardCharsets.UTF_8));
        }
    }

    private <T> T parse(Reply reply, Class<T> type, String operation, String what) {
        try {
            return Jackson.MAPPER.readValue(reply.body, type);
        } catch (IOException e) {
            throw new MetadataStoreException(operation + " of " + what + " on " + description
                    + " failed: cannot parse Consul's answer (HTTP " + reply.code + "): " + e.getMessage(), e);
        }
    }

    /** A call to Consul, retried on transient failures for up to the operation timeout. */
    @FunctionalInterface
    private interface ConsulCall<T> {
        T run() throws IOException;
    }

    private <T> T call(String operation, String what, ConsulCall<T> body) {
        long start = System.nanoTime();
        for (int retries = 0; ; retries++) {
            checkOpen();
            try {
                return body.run();
            } catch (IOException | ConsulException e) {
                if (closed.get()) {
                    throw new MetadataStoreException(operation + " of " + what + " on " + description
                            + " failed: the store is closed", e);
                }
                if (interrupted(e)) {
                    Thread.currentThread().interrupt();
                    throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                            + " interrupted; a write's outcome is unknown", e);
                }
                int status = status(e);
                if (!isTransient(status)) {
                    throw failure(operation, what, status, e);
                }
                long elapsed = System.nanoTime() - start;
                try {
                    if (retry.allowRetry(retries, elapsed)) {
                        LOG.debug("{}: {} of {} failed ({}), retrying", description, operation, what, e.toString());
                        continue;
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                            + " interrupted while retrying; a write's outcome is unknown", e);
                }
                throw new MetadataUnavailableException(operation + " of " + what + " on " + description
                        + " failed: Consul unavailable (" + describe(status, e) + ") after retrying for "
                        + format(Duration.ofNanos(System.nanoTime() - start)) + " (" + retries + " retries, "
                        + "operation-timeout " + format(operationTimeout) + "); a write's outcome is unknown", e);
            }
        }
    }

    private static boolean interrupted(Exception e) {
        Throwable t = e instanceof ConsulException && e.getCause() != null ? e.getCause() : e;
        return t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)
                && "interrupted".equals(t.getMessage());
    }

    /** The HTTP status of a failure, or -1 if no answer came (connection refused, reset, timed out). */
    private static int status(Exception e) {
        if (e instanceof ConsulException c) {
            return c.hasCode() ? c.getCode() : -1;
        }
        if (e instanceof StatusException s) {
            return s.code;
        }
        return -1;
    }

    private static boolean isTransient(int status) {
        return status == -1 || status == 429 || status >= 500;
    }

    /** Maps a permanent failure to the exception the SPI promises. */
    private MetadataStoreException failure(String operation, String what, int status, Exception e) {
        String prefix = operation + " of " + what + " on " + description;
        return switch (status) {
            case 401, 403 -> denied(operation, what, describe(status, e), e);
            case 413 -> new MetadataStoreException(prefix + " rejected as too large (" + describe(status, e)
                    + "): Consul limits one KV value to 512 KiB (limits.kv_max_value_size) and one transaction"
                    + " request to 512 KiB (limits.txn_max_req_len) by default", e);
            default -> new MetadataStoreException(prefix + " failed: " + describe(status, e), e);
        };
    }

    private MetadataStoreException denied(String operation, String what, String detail, Exception cause) {
        return new MetadataStoreException(operation + " of " + what + " on " + description
                + " denied by the Consul ACL (" + detail + "): this client "
                + (hasToken ? "sends the token set in " + tokenKey : "sends no token (" + tokenKey + " is not set)")
                + "; use a token whose policy grants key read, write and list on " + prefix + "/", cause);
    }

    private static String describe(int status, Exception e) {
        if (status == -1) {
            Throwable t = e instanceof ConsulException && e.getCause() != null ? e.getCause() : e;
            return "no answer: " + t;
        }
        if (e instanceof StatusException s) {
            return "HTTP " + status + ": " + detail(s.body);
        }
        String m = String.valueOf(e.getMessage());
        int at = m.indexOf("]: ");
        return "HTTP " + status + ": " + detail(at >= 0 ? m.substring(at + 3) : m);
    }

    private static String detail(String body) {
        String b = body == null ? "" : body.strip();
        return b.length() > MAX_DETAIL ? b.substring(0, MAX_DETAIL) + "..." : b;
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new MetadataStoreException(description + " is closed");
        }
    }

    private PutOptions putOptions(long cas) {
        return ImmutablePutOptions.builder().cas(cas).dc(Optional.ofNullable(datacenter)).build();
    }

    private void addReadMode(HttpUrl.Builder url) {
        switch (readMode) {
            case CONSISTENT -> url.addQueryParameter("consistent", null);
            case STALE -> url.addQueryParameter("stale", null);
            case DEFAULT -> {
                // no parameter
            }
            default -> throw new AssertionError(readMode);
        }
        if (datacenter != null) {
            url.addQueryParameter("dc", datacenter);
        }
    }

    private String containerPrefix(String container) {
        return prefix + "/" + container + "/";
    }

    private String consulKey(MetadataKey key) {
        return containerPrefix(key.container()) + consulName(KeyEncoding.encode(key.key()));
    }

    private static VersionedValue versioned(Value v) {
        return new VersionedValue(v.getValueAsBytes().orElse(EMPTY), new MetadataVersion(v.getModifyIndex()));
    }

    /** The ModifyIndex to check-and-set against: 0 creates; a value no entry can have is a conflict. */
    private static long casIndex(MetadataKey key, MetadataVersion v) throws VersionConflictException {
        if (v.isAbsent()) {
            return 0;
        }
        if (v.value() <= 0) {
            throw new VersionConflictException(key + ": version " + v + " is not a Consul ModifyIndex");
        }
        return v.value();
    }

    /** The {@code X-Consul-Index} of an answer, or 0. */
    private static long index(Response response) {
        String h = response.header("X-Consul-Index");
        if (h == null) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(h.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Appends a JSON string literal. */
    private static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }

    static String format(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /**
     * A watch: blocking queries on one key until its ModifyIndex differs from the one read, then the callback,
     * once. One query is in flight at a time; each is started by the previous one's callback or by the timer, so
     * the plain fields below are handed over with a happens-before edge.
     */
    private final class Watch implements Subscription, Callback {
        private final MetadataKey key;
        private final String consulKey;
        /** ModifyIndex of the value read, 0 if the key was absent. */
        private final long seen;
        private final Runnable onChange;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Call inFlight;
        private volatile long index;
        private volatile int failures;
        private volatile long failingSince;

        Watch(MetadataKey key, long seen, Runnable onChange) {
            this.key = key;
            this.consulKey = consulKey(key);
            this.seen = seen;
            this.onChange = onChange;
            this.index = seen; // an existing key's query index is its ModifyIndex; 0 asks at once for the index
        }

        void poll() {
            if (done.get()) {
                return;
            }
            HttpUrl.Builder url = api.newBuilder().addPathSegment("kv").addPathSegments(consulKey);
            if (index > 0) {
                url.addQueryParameter("index", Long.toUnsignedString(index))
                        .addQueryParameter("wait", watchWait.toMillis() + "ms");
            }
            addReadMode(url);
            Call call = watchHttp.newCall(new Request.Builder().url(url.build()).get().build());
            inFlight = call;
            if (done.get()) {
                return; // cancelled meanwhile: cancel() may have seen the previous call only
            }
            try {
                call.enqueue(this);
            } catch (RejectedExecutionException e) {
                done.set(true); // the store is closing
                watches.remove(this);
            }
        }

        @Override
        public void onResponse(Call call, Response response) {
            try (response) {
                if (done.get()) {
                    return;
                }
                int code = response.code();
                if (code == 200 || code == 404) {
                    long current = 0;
                    if (code == 200) {
                        List<Value> values = Jackson.MAPPER.readValue(response.body().bytes(), VALUES);
                        current = values == null || values.isEmpty() ? 0 : values.get(0).getModifyIndex();
                    }
                    failures = 0;
                    failingSince = 0;
                    if (current != seen) {
                        fire();
                        return;
                    }
                    long next = index(response);
                    // Consul's advice: an index that goes backwards means a reset (e.g. a snapshot restore)
                    index = next < index ? 0 : Math.max(next, 1);
                    poll();
                } else if (isTransient(code)) {
                    retryLater("HTTP " + code + ": " + detail(response.body().string()));
                } else {
                    LOG.warn("{}: watch on {} cannot continue (HTTP {}: {}); firing it so the reader re-reads",
                            description, key, code, detail(response.body().string()));
                    fire();
                }
            } catch (IOException | RuntimeException e) {
                if (!done.get()) {
                    retryLater(e.toString());
                }
            }
        }

        @Override
        public void onFailure(Call call, IOException e) {
            if (done.get() || call.isCanceled()) {
                return;
            }
            retryLater(e.toString());
        }

        private void retryLater(String why) {
            long now = System.nanoTime();
            if (failures == 0) {
                failingSince = now;
            }
            if (now - failingSince > operationTimeout.toNanos()) {
                LOG.warn("{}: watch on {} failed for longer than operation-timeout {} ({}); firing it so the reader"
                        + " re-reads", description, key, format(operationTimeout), why);
                fire();
                return;
            }
            long delay = BoundedRetry.backoffMillis(failures++);
            LOG.debug("{}: watch on {} failed ({}), retrying in {} ms", description, key, why, delay);
            try {
                timer.schedule(this::poll, delay, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                cancel();
            }
        }

        private void fire() {
            if (done.compareAndSet(false, true)) {
                watches.remove(this);
                try {
                    onChange.run();
                } catch (RuntimeException e) {
                    LOG.warn("{}: watch callback for {} threw", description, key, e);
                }
            }
        }

        @Override
        public void cancel() {
            if (done.compareAndSet(false, true)) {
                watches.remove(this);
                Call c = inFlight;
                if (c != null) {
                    c.cancel();
                }
            }
        }
    }

    /**
     * Configures and connects a {@link ConsulMetadataStore}. Not thread-safe; {@link #build()} validates every
     * setting (messages name the option) and blocks until the agent answers with a leader.
     */
    public static final class Builder {
        private String address;
        private String keyPrefix = "hybris";
        private ReadMode readMode = ReadMode.CONSISTENT;
        private String token;
        private String datacenter;
        private boolean tls;
        private Path truststore;
        private String truststorePassword;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration readTimeout = Duration.ofSeconds(8);
        private Duration operationTimeout = Duration.ofSeconds(10);
        private Duration startTimeout = Duration.ofSeconds(15);
        private Duration watchWait = Duration.ofMinutes(5);
        private Function<String, String> keyNames = name -> name;
        private BoundedRetry.Sleeper sleeper = BoundedRetry.Sleeper.SYSTEM;

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
        public Builder tlsTruststore(Path truststore) {
            this.truststore = truststore;
            return this;
        }

        /** The trust store's password; null for none. */
        public Builder tlsTruststorePassword(String password) {
            this.truststorePassword = password;
            return this;
        }

        /** Connect timeout of one request; default 10 s. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** How long one request waits for its answer; default 10 s. */
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

        private void validate() {
            if (address == null || address.isBlank()) {
                throw new HybrisConfigurationException(keyNames.apply("address")
                        + " is required: host:port of the Consul agent's HTTP API, e.g. 127.0.0.1:8500");
            }
            address = address.trim();
            if (!validAddress(address)) {
                throw new HybrisConfigurationException(keyNames.apply("address") + "=" + address
                        + " is not host:port; use e.g. 127.0.0.1:8500 or [::1]:8500 (no scheme: set "
                        + keyNames.apply("tls") + "=true for HTTPS)");
            }
            String problem = null;
            if (keyPrefix == null || keyPrefix.isEmpty()) {
                problem = "it is empty";
            } else if (keyPrefix.startsWith("/") || keyPrefix.endsWith("/")) {
                problem = "it starts or ends with '/'";
            } else {
                for (String segment : keyPrefix.split("/", -1)) {
                    if (segment.isEmpty()) {
                        problem = "it has an empty segment ('//')";
                    } else if (segment.equals(".") || segment.equals("..")) {
                        problem = "it has a '" + segment + "' segment";
                    } else if (!PREFIX_SEGMENT.matcher(segment).matches()) {
                        problem = "segment '" + segment + "' has a character outside [A-Za-z0-9._-]";
                    }
                    if (problem != null) {
                        break;
                    }
                }
            }
            if (problem != null) {
                throw new HybrisConfigurationException(keyNames.apply("key-prefix") + "=" + keyPrefix
                        + " is not a valid key prefix: " + problem + "; use segments of [A-Za-z0-9._-] separated by"
                        + " '/', e.g. hybris or apps/photos/hybris");
            }
            if (token != null && token.isBlank()) {
                token = null;
            }
            if (datacenter != null && !DATACENTER.matcher(datacenter).matches()) {
                throw new HybrisConfigurationException(keyNames.apply("datacenter") + "=" + datacenter
                        + " is not a Consul datacenter name ([A-Za-z0-9_-]+), e.g. dc1");
            }
            if (!tls && (truststore != null || truststorePassword != null)) {
                throw new HybrisConfigurationException(keyNames.apply(truststore != null ? "tls-truststore"
                        : "tls-truststore-password") + " is set but " + keyNames.apply("tls")
                        + " is not true; set " + keyNames.apply("tls") + "=true to talk HTTPS to Consul");
            }
            positive("connect-timeout", connectTimeout);
            positive("read-timeout", readTimeout);
            positive("operation-timeout", operationTimeout);
            positive("start-timeout", startTimeout);
            if (watchWait == null || watchWait.compareTo(Duration.ofSeconds(1)) < 0
                    || watchWait.compareTo(MAX_WATCH_WAIT) > 0) {
                throw new HybrisConfigurationException(keyNames.apply("watch-wait") + "=" + watchWait
                        + " must be between 1s and 10m (Consul caps a blocking query's wait at 10 minutes)");
            }
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

        private void positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new HybrisConfigurationException(keyNames.apply(name) + "=" + d + " must be a positive duration");
            }
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
            validate();
            return start(this);
        }
    }
}
