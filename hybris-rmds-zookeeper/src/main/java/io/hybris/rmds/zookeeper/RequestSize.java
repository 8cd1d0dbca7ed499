/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.InvalidRequestException;
import io.hybris.spi.MetadataUpdate;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.jute.BinaryOutputArchive;
import org.apache.zookeeper.MultiOperationRecord;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The size check of a {@code multi} before it is sent. A ZooKeeper server closes the connection of a client that
 * sends a request larger than its {@code jute.maxbuffer} (1 MiB by default); the client sees a connection loss,
 * Curator retries the request, the server closes again, and the caller gets "unavailable" with an unknown outcome
 * after every retry has dropped the session's connection and failed the other calls in flight on it. An atomic
 * update of many keys with large application metadata (plus its change-log record, which repeats each key's
 * metadata) can be that large: it is refused here instead, before anything is sent. Immutable and thread-safe.
 */
final class RequestSize {
    /** A request header (xid, type) ahead of the record: the length the server checks counts both. */
    private static final int HEADER = 8;
    /** More than the fixed part of one operation with its ACLs: below this, no exact size is needed. */
    private static final int PER_OPERATION = 256;

    private final long limit;
    private final int chrootBytes;
    private final String optionKey;

    /**
     * @param limit     the largest request the servers accept (their {@code jute.maxbuffer})
     * @param connect   the connect string (a chroot suffix lengthens every path sent)
     * @param optionKey the option that sets {@code limit}, for messages
     */
    RequestSize(long limit, String connect, String optionKey) {
        this.limit = limit;
        int slash = connect == null ? -1 : connect.indexOf('/');
        this.chrootBytes = slash < 0 ? 0 : connect.substring(slash).getBytes(StandardCharsets.UTF_8).length;
        this.optionKey = optionKey;
    }

    /**
     * Refuses {@code ops}, the {@code multi} of {@code updates}, if it is larger than the servers accept.
     *
     * @throws InvalidRequestException naming the size, the limit and what to do; nothing was sent
     */
    void check(List<MetadataUpdate> updates, List<CuratorOp> ops, String what) {
        long rough = 0;
        for (MetadataUpdate u : updates) {
            rough += u.value().length + u.key().container().length() + u.key().key().length() * 3L + 64;
        }
        // the keys' data and paths, then the change-log record repeating them: well under 3x; skip the exact size
        if (3 * rough + (long) PER_OPERATION * (ops.size() + 1) <= limit) {
            return;
        }
        long size = exactSize(ops);
        if (size > limit) {
            throw new InvalidRequestException(what + " is a ZooKeeper request of " + bytes(size) + " bytes (the keys'"
                    + " metadata and the commit's change-log record), more than the servers accept (" + optionKey + "="
                    + bytes(limit) + ", their jute.maxbuffer); nothing was sent. Write fewer keys at once or smaller"
                    + " application metadata, or raise jute.maxbuffer on every server and " + optionKey + " to match");
        }
    }

    private static String bytes(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** The length the server checks: header and {@code multi} record, every path with the chroot. */
    long exactSize(List<CuratorOp> ops) {
        CountingStream counted = new CountingStream();
        try {
            new MultiOperationRecord(ops.stream().map(CuratorOp::get).toList())
                    .serialize(BinaryOutputArchive.getArchive(counted), "request");
        } catch (IOException e) {
            throw new IllegalStateException("counting bytes cannot fail", e);
        }
        return HEADER + counted.bytes + (long) chrootBytes * ops.size();
    }

    private static final class CountingStream extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}
