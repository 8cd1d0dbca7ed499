/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PutOptions;
import io.hybris.ValueStream;
import io.hybris.VersionInfo;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The container side of a sync: streamed uploads that carry the content's SHA-256 as application metadata
 * ({@value #CONTENT_SHA256}) and fail if the file changed while it was read, streamed downloads into a temporary
 * file that is then moved into place atomically, conditional deletions, listing.
 */
final class RemoteFiles {
    /** The application metadata name of a version's content hash (SHA-256 of the file, lower-case hex). */
    static final String CONTENT_SHA256 = "content-sha256";

    /** A version written into the folder, with the hash and fingerprint of the file as written. */
    record Download(VersionInfo version, String sha256, LocalFolder.Fingerprint fingerprint) {
    }

    private final Hybris hybris;
    private final String container;
    private final Path tmpDir;

    RemoteFiles(Hybris hybris, String container, Path tmpDir) {
        this.hybris = hybris;
        this.container = container;
        this.tmpDir = tmpDir;
    }

    /** The content hash a version was written with; empty if it was not written by a sync client. */
    static Optional<String> contentSha256(VersionInfo v) {
        return Optional.ofNullable(v.metadata().get(CONTENT_SHA256));
    }

    /**
     * Commits {@code file} ({@code size} bytes whose SHA-256 is {@code sha256}) under {@code key} if
     * {@code precondition} holds, streaming it.
     *
     * @throws IOException if the file cannot be read, or changed while it was read (nothing is committed then)
     */
    VersionInfo upload(String key, Path file, long size, String sha256, PutOptions precondition) throws IOException {
        PutOptions options = precondition.withMetadata(Map.of(CONTENT_SHA256, sha256));
        try (InputStream in = new Verifying(Files.newInputStream(file), size, sha256)) {
            return hybris.put(container, key, in, size, options);
        }
    }

    /**
     * Writes the current version of {@code key} to {@code target}: streamed into a temporary file, then moved
     * over {@code target} atomically. Empty (and nothing written) if the key has no value.
     */
    Optional<Download> download(String key, Path target) throws IOException {
        Optional<ValueStream> found = hybris.getStream(container, key);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Path tmp = Files.createTempFile(tmpDir, "download-", ".part");
        try {
            MessageDigest md = LocalFolder.newSha256();
            try (ValueStream in = found.get(); OutputStream out = new DigestOutputStream(Files.newOutputStream(tmp),
                    md)) {
                in.transferTo(out);
            }
            LocalFolder.Fingerprint written = LocalFolder.fingerprint(tmp).orElseThrow();
            LocalFolder.move(tmp, target);
            return Optional.of(new Download(found.get().version(), HexFormat.of().formatHex(md.digest()), written));
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Deletes {@code key} if its current version is {@code version}. */
    void delete(String key, String version) {
        hybris.delete(container, key, DeleteOptions.ifMatch(version));
    }

    /** The current version of {@code key}; empty if it has no value. */
    Optional<VersionInfo> describe(String key) {
        return hybris.describe(container, key);
    }

    /** Every live key of the container. */
    List<String> list() {
        return hybris.list(container);
    }

    /** A file's stream that fails its last read if the bytes read do not hash to what was announced. */
    private static final class Verifying extends FilterInputStream {
        private final MessageDigest md = LocalFolder.newSha256();
        private final String expected;
        private long remaining;

        Verifying(InputStream in, long length, String expected) {
            super(in);
            this.remaining = length;
            this.expected = expected;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                md.update((byte) b);
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                md.update(b, off, n);
                counted(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            throw new IOException("skipping would leave bytes out of the hash");
        }

        private void counted(int n) throws IOException {
            remaining -= n;
            if (remaining == 0 && !HexFormat.of().formatHex(md.digest()).equals(expected)) {
                throw new IOException("the file changed while it was uploaded; it is uploaded again on the next"
                        + " scan");
            }
        }
    }
}
