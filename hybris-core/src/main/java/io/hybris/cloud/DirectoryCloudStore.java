/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud;

import io.hybris.spi.BoundedReads;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A {@link CloudStore} that keeps each object as a file under a root directory: the embedded default's
 * "clouds" (three directories standing in for three providers). Writes go to a temporary file that is then
 * atomically renamed, so a crash never leaves a half-written object. Thread-safe.
 *
 * <p>Object key segments (between slashes) map to directories; a segment longer than 200 characters is split
 * into 200-character directories each marked with a trailing {@code ~} (which object keys never contain), so
 * long keys stay within file-name limits.
 *
 * <pre>{@code
 * CloudStore disk = new DirectoryCloudStore("disk1", Path.of("/var/lib/hybris/cloud1"));
 * }</pre>
 */
public final class DirectoryCloudStore implements CloudStore {
    private static final int MAX_SEGMENT = 200;
    private static final String CONTINUATION = "~";
    private static final String TMP_DIR = "~tmp";

    private final String id;
    private final Path root;
    private final Path tmp;

    /** Creates the store, creating {@code root} if needed. */
    public DirectoryCloudStore(String id, Path root) {
        this.id = Objects.requireNonNull(id, "id");
        this.root = root.toAbsolutePath().normalize();
        this.tmp = this.root.resolve(TMP_DIR);
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new PermanentCloudException(id, "cannot create directory " + this.root + ": " + e, e);
        }
        // a process killed while it wrote an object leaves its partial file here, where no listing (so no orphan
        // sweep) sees it; a write in progress rewrites its file continuously and renames it at once when done
        io.hybris.spi.support.LeftoverFiles.deleteAbandoned(tmp, "", "");
    }

    /** The root directory. */
    public Path root() {
        return root;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void put(String objectKey, byte[] value) {
        Path target = pathOf(objectKey);
        Path temp = tmp.resolve(UUID.randomUUID().toString());
        try {
            Files.write(temp, value);
            for (int attempt = 0; ; attempt++) {
                try {
                    Files.createDirectories(target.getParent());
                    moveAtomically(temp, target);
                    return;
                } catch (NoSuchFileException | FileAlreadyExistsException e) {
                    if (attempt >= 3) {
                        throw e;
                    }
                }
            }
        } catch (ClosedByInterruptException e) {
            Thread.currentThread().interrupt();
            throw new TransientCloudException(id, "put of '" + objectKey + "' interrupted", e);
        } catch (IOException e) {
            throw failure("put", objectKey, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // the temp directory only holds our own leftovers; nothing else to do
            }
        }
    }

    private static void moveAtomically(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        Path file = pathOf(objectKey);
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            if (size > maxBytes) {
                throw new OversizedObjectException(id, objectKey, maxBytes);
            }
            // the file's size is known: read straight into an array of that size, not through a growing buffer
            return Optional.of(BoundedReads.readAtMost(Channels.newInputStream(channel), maxBytes, size, id,
                    objectKey, (bytes, offset, length) -> { }));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (ClosedByInterruptException e) {
            Thread.currentThread().interrupt();
            throw new TransientCloudException(id, "get of '" + objectKey + "' interrupted", e);
        } catch (FileSystemException e) {
            if (!Files.exists(file)) {
                return Optional.empty(); // e.g. a path component is a file: no such object
            }
            throw failure("get", objectKey, e);
        } catch (IOException e) {
            throw failure("get", objectKey, e);
        }
    }

    /**
     * Lists the objects whose keys start with {@code prefix}. The walk starts at the directory of the prefix's
     * complete segments and skips every directory whose keys cannot start with the prefix, so listing one key's
     * versions (or checking one object's size) reads that key's directories only, not the whole root.
     */
    @Override
    public List<CloudObject> list(String prefix) {
        List<CloudObject> out = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            throw new PermanentCloudException(id, "directory " + root + " does not exist");
        }
        Path start = directoryOfSegments(prefix.substring(0, Math.max(0, prefix.lastIndexOf('/'))));
        if (start == null || !Files.isDirectory(start)) {
            return out; // no key has such segments, or none is stored under them
        }
        try {
            // other threads' puts move temporary files into place and deletes remove files while this walks: an
            // entry gone between its directory's read and its attributes' is left out, not a failed listing
            Files.walkFileTree(start, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (dir.equals(tmp)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    String keysStart = keysStartIn(dir);
                    return keysStart.startsWith(prefix) || prefix.startsWith(keysStart)
                            ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        String key = keyOf(file);
                        if (key.startsWith(prefix)) {
                            out.add(new CloudObject(key, attrs.size(), attrs.lastModifiedTime().toInstant()));
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null && !(e instanceof NoSuchFileException)) {
                        throw e;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            return out; // the prefix's directory went with its last object's delete while the walk began
        } catch (IOException e) {
            throw failure("list", prefix, e);
        }
        return out;
    }

    @Override
    public void delete(String objectKey) {
        Path file = pathOf(objectKey);
        try {
            Files.deleteIfExists(file);
        } catch (FileSystemException e) {
            if (Files.exists(file)) {
                throw failure("delete", objectKey, e);
            }
        } catch (IOException e) {
            throw failure("delete", objectKey, e);
        }
    }

    private Path pathOf(String objectKey) {
        Path p = directoryOfSegments(objectKey);
        if (p == null || p.equals(root)) {
            throw new IllegalArgumentException("invalid object key '" + objectKey + "'");
        }
        return p;
    }

    /**
     * The path of the slash-separated {@code segments} (the root for none); null if a segment is one no object key
     * holds (empty, {@code .}, {@code ..}, or with {@code ~} or a backslash).
     */
    private Path directoryOfSegments(String segments) {
        Path p = root;
        if (segments.isEmpty()) {
            return p;
        }
        for (String segment : segments.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.contains(CONTINUATION)
                    || segment.contains("\\")) {
                return null;
            }
            while (segment.length() > MAX_SEGMENT) {
                p = p.resolve(segment.substring(0, MAX_SEGMENT) + CONTINUATION);
                segment = segment.substring(MAX_SEGMENT);
            }
            p = p.resolve(segment);
        }
        return p;
    }

    /** What the keys of the objects under {@code dir} start with: "a/b/" for a directory, "a/b" for a continuation. */
    private String keysStartIn(Path dir) {
        StringBuilder sb = new StringBuilder();
        for (Path part : root.relativize(dir)) {
            String s = part.toString();
            if (s.isEmpty()) {
                continue; // the root itself
            }
            if (s.endsWith(CONTINUATION)) {
                sb.append(s, 0, s.length() - 1);
            } else {
                sb.append(s).append('/');
            }
        }
        return sb.toString();
    }

    private String keyOf(Path file) {
        String keysStart = keysStartIn(file);
        return keysStart.substring(0, keysStart.length() - 1); // a file's name never ends with the continuation mark
    }

    private RuntimeException failure(String op, String objectKey, IOException e) {
        if (e instanceof AccessDeniedException) {
            return new PermanentCloudException(id, op + " of '" + objectKey + "' denied: " + e.getMessage(), e);
        }
        return new TransientCloudException(id, op + " of '" + objectKey + "' failed: " + e, e);
    }

    @Override
    public String toString() {
        return "DirectoryCloudStore[" + id + ", " + root + "]";
    }
}
