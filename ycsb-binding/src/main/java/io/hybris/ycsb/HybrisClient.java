/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.InvalidRequestException;
import io.hybris.KeyPage;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.ValueStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;

/**
 * A YCSB binding for Hybris: {@code bin/ycsb run hybris -P workloads/workloada -p hybris.config=hybris.properties}
 * or, with this jar and {@code site.ycsb:core} on the class path,
 * {@code java site.ycsb.Client -t -db io.hybris.ycsb.HybrisClient -P workloada -s}.
 *
 * <p><b>Mapping.</b> Every YCSB table lives in one Hybris container ({@code hybris.container}, default
 * {@code ycsb}); record {@code k} of table {@code t} is the Hybris key {@code t/k}, whose value is the whole record
 * in {@link RecordCodec}'s length-prefixed binary format, so fields with any names and binary values round-trip
 * exactly.
 * <ul>
 *   <li>insert: PUT of the whole record (replacing any previous one);</li>
 *   <li>read: GET, decoding only the requested fields ({@code null}: all); a requested field the record lacks is
 *       simply absent from the result;</li>
 *   <li>update: read-modify-write: GET (with the version read), merge the given fields over the stored ones, PUT
 *       {@code ifMatch} that version; a concurrent write in between (in this JVM or any other process) fails the
 *       PUT's precondition and the update retries from the GET, so concurrent updates never lose each other's
 *       fields (up to {@value #UPDATE_ATTEMPTS} attempts, then ERROR);</li>
 *   <li>delete: a Hybris DELETE, NOT_FOUND when there was no record;</li>
 *   <li>scan: the start key's record plus the next keys of the table in key order, found by a paged LIST of the
 *       table's key prefix {@code t/} ({@code hybris.scan.page-size} keys per page, from metadata only) and read
 *       with concurrent GETs. A record deleted between the LIST and its GET is left out.</li>
 * </ul>
 *
 * <p><b>Status codes.</b> OK; NOT_FOUND when read, update or delete finds no record; BAD_REQUEST for a key or
 * value Hybris rejects before writing (key longer than 256 UTF-8 bytes with the table prefix, control characters,
 * value over {@code hybris.value.max-size}), a field name with no UTF-8 form, or a scan length below 1;
 * SERVICE_UNAVAILABLE when too few clouds or the metadata store answered within the deadline; ERROR otherwise, e.g.
 * a stored value that is not a record of this binding (see {@link Statuses}).
 *
 * <p><b>Configuration</b> (see {@link BindingSettings}): {@code hybris.config=<file>} names a Hybris properties
 * file; without it the embedded default runs (in-process ZooKeeper and three directory clouds, f=1). YCSB makes
 * one instance per thread; all of them share one Hybris client per deployment, closed by the last
 * {@link #cleanup()}.
 */
public class HybrisClient extends DB {
    private static final Logger LOG = LoggerFactory.getLogger(HybrisClient.class);
    /** How many times an update retries a read-modify-write that lost its precondition to a concurrent write. */
    static final int UPDATE_ATTEMPTS = 100;

    private SharedClients.Lease lease;
    private Hybris hybris;
    private String container;
    private int scanPageSize;

    /** Instantiated by YCSB, one per client thread. */
    public HybrisClient() {
    }

    /** Parses the properties and takes a reference to the shared Hybris client (opening it on first use). */
    @Override
    public void init() throws DBException {
        if (lease != null) {
            throw new DBException("init() called twice on the same HybrisClient");
        }
        BindingSettings settings = BindingSettings.from(getProperties());
        try {
            lease = SharedClients.acquire(settings);
        } catch (RuntimeException e) {
            throw new DBException("Hybris YCSB binding: cannot open "
                    + settings.configFile().map(f -> "the deployment configured in " + f).orElse("the embedded default")
                    + ": " + e.getMessage(), e);
        }
        hybris = lease.hybris();
        container = settings.container();
        scanPageSize = settings.scanPageSize();
    }

    /** Releases this thread's reference; the last one closes the shared client. */
    @Override
    public void cleanup() throws DBException {
        if (lease == null) {
            return;
        }
        try {
            lease.release();
        } catch (RuntimeException e) {
            throw new DBException("Hybris YCSB binding: closing " + lease.description() + " failed: " + e, e);
        } finally {
            lease = null;
            hybris = null;
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        String hybrisKey = key(table, key);
        try {
            Optional<byte[]> value = hybris.get(container, hybrisKey);
            if (value.isEmpty()) {
                return Status.NOT_FOUND;
            }
            putAll(result, RecordCodec.decode(value.get(), fields));
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("read", hybrisKey, e);
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        String hybrisKey = key(table, key);
        try {
            hybris.put(container, hybrisKey, encode(bytes(values)));
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("insert", hybrisKey, e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        String hybrisKey = key(table, key);
        Map<String, byte[]> changes = bytes(values);
        try {
            for (int attempt = 1; ; attempt++) {
                byte[] record;
                String version;
                Optional<ValueStream> current = hybris.getStream(container, hybrisKey);
                if (current.isEmpty()) {
                    return Status.NOT_FOUND;
                }
                try (ValueStream in = current.get()) {
                    record = in.readAllBytes();
                    version = in.version().version();
                }
                Map<String, byte[]> merged = RecordCodec.decode(record, null);
                merged.putAll(changes);
                try {
                    hybris.put(container, hybrisKey, encode(merged), PutOptions.ifMatch(version));
                    return Status.OK;
                } catch (PreconditionFailedException lost) {
                    if (lost.current().isEmpty()) {
                        return Status.NOT_FOUND; // deleted meanwhile
                    }
                    if (attempt == UPDATE_ATTEMPTS) {
                        return failed("update", hybrisKey, lost);
                    }
                }
            }
        } catch (java.io.IOException e) {
            return failed("update", hybrisKey, new HybrisException("reading " + hybrisKey + " failed", e));
        } catch (RuntimeException e) {
            return failed("update", hybrisKey, e);
        }
    }

    @Override
    public Status delete(String table, String key) {
        String hybrisKey = key(table, key);
        try {
            return hybris.delete(container, hybrisKey).isPresent() ? Status.OK : Status.NOT_FOUND;
        } catch (RuntimeException e) {
            return failed("delete", hybrisKey, e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        String first = key(table, startkey);
        if (recordcount < 1) {
            LOG.warn("YCSB scan from {} asked for {} records; the count must be at least 1", first, recordcount);
            return Status.BAD_REQUEST;
        }
        try {
            ScanPager pager = new ScanPager(table + "/", first);
            List<CompletableFuture<Optional<byte[]>>> reads = new ArrayList<>(recordcount);
            reads.add(hybris.getAsync(container, first));
            pager.readNext(recordcount - 1, reads);
            if (reads.get(0).join().isEmpty()) {
                pager.readNext(1, reads); // the start key is absent: one more key makes up the count
            }
            for (CompletableFuture<Optional<byte[]>> read : reads) {
                Optional<byte[]> value = read.join();
                if (value.isPresent() && result.size() < recordcount) {
                    HashMap<String, ByteIterator> record = new HashMap<>();
                    putAll(record, RecordCodec.decode(value.get(), fields));
                    result.add(record);
                }
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return failed("scan", first, e);
        }
    }

    /** Walks a table's keys after the start key, page by page, starting a GET for each. Not thread-safe. */
    private final class ScanPager {
        private final String prefix;
        private String cursor;

        ScanPager(String prefix, String startAfter) {
            this.prefix = prefix;
            this.cursor = startAfter;
        }

        void readNext(int count, List<CompletableFuture<Optional<byte[]>>> reads) {
            int left = count;
            while (left > 0 && cursor != null) {
                KeyPage page = hybris.list(container, prefix, cursor, Math.min(scanPageSize, left));
                for (String k : page.keys()) {
                    reads.add(hybris.getAsync(container, k));
                }
                left -= page.keys().size();
                cursor = page.nextCursor().orElse(null);
            }
        }
    }

    /** The record's bytes; a field name that cannot be stored is a bad request (nothing is written). */
    private static byte[] encode(Map<String, byte[]> fields) {
        try {
            return RecordCodec.encode(fields);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    private static String key(String table, String key) {
        return table + "/" + key;
    }

    private static Map<String, byte[]> bytes(Map<String, ByteIterator> values) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
            out.put(e.getKey(), e.getValue().toArray());
        }
        return out;
    }

    private static void putAll(Map<String, ByteIterator> result, Map<String, byte[]> fields) {
        for (Map.Entry<String, byte[]> e : fields.entrySet()) {
            result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
        }
    }

    private static Status failed(String operation, String key, RuntimeException e) {
        Throwable cause = Statuses.unwrap(e);
        Status status = Statuses.of(cause);
        LOG.warn("YCSB {} of {} failed ({}): {}", operation, key, status.getName(), cause.toString());
        LOG.debug("YCSB {} of {} failed", operation, key, cause);
        return status;
    }
}
