/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The synced folder on disk: maps keys to files and back (a key is the path relative to the folder, with '/'),
 * lists the regular files (skipping the hidden {@value #STATE_DIR} directory the client keeps its state and
 * partial downloads in), fingerprints and hashes files (streamed), and names conflicted copies.
 */
final class LocalFolder {
    /** The directory inside the synced folder that holds the client's state; never synced. */
    static final String STATE_DIR = ".hybris-sync";
    private static final int MAX_KEY_BYTES = 256;
    private static final DateTimeFormatter CONFLICT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HHmmss");

    /** A file's size and modification time: if both are as last synced, the file is taken as unchanged. */
    record Fingerprint(long size, long mtimeNanos) {
    }

    private final Path root;

    LocalFolder(Path root) {
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root.resolve(STATE_DIR).resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the sync folder " + this.root, e);
        }
    }

    Path root() {
        return root;
    }

    /** Where the client keeps its state. */
    Path stateDir() {
        return root.resolve(STATE_DIR);
    }

    /** Where downloads are written before they are moved into place (same file system: the move is atomic). */
    Path tmpDir() {
        return stateDir().resolve("tmp");
    }

    /** The file of {@code key}; empty if the key is not a safe relative path (such keys are not synced). */
    Optional<Path> pathOf(String key) {
        if (key.isEmpty() || key.startsWith("/") || key.indexOf('\\') >= 0
                || key.chars().anyMatch(Character::isISOControl)
                || key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            return Optional.empty();
        }
        String[] segments = key.split("/", -1);
        for (String s : segments) {
            if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                return Optional.empty();
            }
        }
        if (segments[0].equals(STATE_DIR)) {
            return Optional.empty();
        }
        Path p = root.resolve(key).normalize();
        return p.startsWith(root) && !p.equals(root) ? Optional.of(p) : Optional.empty();
    }

    /** The key of {@code file}, a path under the folder. */
    String keyOf(Path file) {
        return root.relativize(file.toAbsolutePath().normalize()).toString().replace(file.getFileSystem()
                .getSeparator(), "/");
    }

    /**
     * Every regular file of the folder whose key is syncable, by key. An entry that vanishes or cannot be read
     * while the walk runs is left out ({@link #walk}): the next scan sees it as it is then. A file left out here is
     * not taken as deleted: deletions are decided per synced key, by its own file.
     */
    Map<String, Path> files() {
        Map<String, Path> files = new TreeMap<>();
        try {
            walk(root, dir -> { }, file -> {
                String key = keyOf(file);
                if (pathOf(key).isPresent()) {
                    files.put(key, file);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the sync folder " + root, e); // the callbacks throw none
        }
        return files;
    }

    /** A callback of {@link #walk} that may fail with an {@link IOException}. */
    interface PathAction {
        void accept(Path path) throws IOException;
    }

    /**
     * Walks {@code start} and everything under it except the state directory, calling {@code onDirectory} for each
     * directory (before its entries) and {@code onRegularFile} for each regular file (or symbolic link to one; links
     * to directories are not followed). The folder changes while the walk runs (downloads moved into place, the
     * state file replaced, the user's own edits), so an entry that vanishes or cannot be read is left out without
     * ending the walk, and so is a directory whose {@code onDirectory} finds it gone ({@link NoSuchFileException}).
     * Other failures of the callbacks propagate.
     */
    void walk(Path start, PathAction onDirectory, PathAction onRegularFile) throws IOException {
        Path state = stateDir();
        Files.walkFileTree(start, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (dir.equals(state)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                try {
                    onDirectory.accept(dir);
                } catch (NoSuchFileException gone) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (attrs.isRegularFile() || attrs.isSymbolicLink() && Files.isRegularFile(file)) {
                    onRegularFile.accept(file); // a link to a regular file counts as that file, as before
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                return FileVisitResult.CONTINUE; // a directory whose listing failed part-way: what was seen
            }
        });
    }

    /** The fingerprint of {@code file}; empty if it does not exist (or is not a regular file). */
    static Optional<Fingerprint> fingerprint(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return a.isRegularFile()
                    ? Optional.of(new Fingerprint(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS)))
                    : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SHA-256 of {@code file}'s content, lower-case hex, read in a stream. */
    static String sha256(Path file) throws IOException {
        MessageDigest md = newSha256();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                md.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * A free key for the conflicted copy of {@code key}: {@code dir/name (conflicted copy <client> <time>).ext},
     * the marker before the extension so that the copy still opens with the same program; a counter is added if
     * that name is taken.
     */
    String conflictedCopyKey(String key, String clientName, ZonedDateTime time) {
        int slash = key.lastIndexOf('/');
        String dir = key.substring(0, slash + 1);
        String name = key.substring(slash + 1);
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        String marker = " (conflicted copy " + clientName + " " + CONFLICT_TIME.format(time);
        for (int n = 1; ; n++) {
            String candidate = dir + base + marker + (n == 1 ? "" : " " + n) + ")" + ext;
            Optional<Path> p = pathOf(candidate);
            if (p.isEmpty()) {
                throw new IllegalStateException("no room for a conflicted copy of " + key + ": the name is too long");
            }
            if (!Files.exists(p.get())) {
                return candidate;
            }
        }
    }

    /** Deletes {@code file}, then its parent directories up to the folder as long as they are empty. */
    void deleteWithEmptyParents(Path file) throws IOException {
        Files.deleteIfExists(file);
        for (Path dir = file.getParent(); dir != null && !dir.equals(root) && dir.startsWith(root);
             dir = dir.getParent()) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    return;
                }
                Files.delete(dir);
            } catch (DirectoryNotEmptyException | NoSuchFileException e) {
                return; // a file created in it meanwhile, or removed by someone else: either way not ours to delete
            }
        }
    }

    /** Moves {@code from} to {@code to} atomically if the file system can (replacing {@code to}). */
    static void move(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
