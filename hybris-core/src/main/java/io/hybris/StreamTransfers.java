/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The file ends of the streaming calls: a file as a put's source, and a verified download into a file. */
final class StreamTransfers {
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    /** A streaming put of a source of {@code length} bytes that {@code reopen} opens anew from its start. */
    interface StreamPut {
        VersionInfo put(InputStream in, long length, Supplier<InputStream> reopen);
    }

    private StreamTransfers() {
    }

    /**
     * Puts the contents of {@code file} through {@code put}. A file can be read again, as a value in memory can: a put
     * in chunks that a conditional write or deletion overtook reads it again and puts again, ordered after that
     * write, where a stream's put fails ({@link PutOvertakenException}). Every stream opened is closed on return.
     */
    static VersionInfo putFile(Path file, StreamPut put) {
        if (file == null) {
            throw new InvalidRequestException("the file to put must not be null");
        }
        if (!Files.isRegularFile(file)) {
            throw new InvalidRequestException("cannot put " + file + ": " + (Files.exists(file)
                    ? "it is not a regular file" : "no such file"));
        }
        List<InputStream> reopened = new ArrayList<>();
        Supplier<InputStream> reopen = () -> {
            try {
                InputStream again = Files.newInputStream(file);
                reopened.add(again);
                return again;
            } catch (IOException e) {
                throw new ValueSourceException("reading " + file + " again failed: " + e.getMessage()
                        + "; nothing was committed", e);
            }
        };
        try (InputStream in = Files.newInputStream(file)) {
            return put.put(in, Files.size(file), reopen);
        } catch (NoSuchFileException e) {
            throw new InvalidRequestException("cannot put " + file + ": no such file");
        } catch (IOException e) {
            throw new ValueSourceException("reading " + file + " failed: " + e.getMessage()
                    + "; nothing was committed", e);
        } finally {
            for (InputStream again : reopened) {
                closeQuietly(again);
            }
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // a file stream only read from: nothing to lose
        }
    }

    /**
     * Copies {@code in} into a temporary file beside {@code file} and renames it over {@code file} once complete;
     * on failure the temporary file is deleted and {@code file} is untouched. The temporary file is created with the
     * process's default permissions (the umask's), and takes those of a {@code file} it replaces; its name is short
     * enough for any valid {@code file} name.
     */
    static void copyToFile(InputStream in, Path file) throws IOException {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        String name = target.getFileName().toString();
        String stem = name.codePointCount(0, name.length()) > 32 ? name.substring(0, name.offsetByCodePoints(0, 32))
                : name;
        Path part = dir.resolve("." + stem + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".hybris-part");
        createLike(target, part);
        boolean done = false;
        try {
            try (OutputStream out = Files.newOutputStream(part, StandardOpenOption.WRITE)) {
                in.transferTo(out);
            }
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(part);
            }
        }
    }

    /**
     * Creates {@code part} (it must not exist) with the POSIX permissions of {@code target} if that exists — from the
     * start, so a private file's new contents are never readable by others while they download — else with the
     * process's defaults (the umask's).
     */
    static void createLike(Path target, Path part) throws IOException {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> perms = null;
        try {
            perms = Files.exists(target) ? Files.getPosixFilePermissions(target) : null;
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system, or the target went meanwhile: the defaults
        }
        if (perms == null) {
            Files.createFile(part);
        } else {
            Files.createFile(part, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(perms));
        }
    }

    /** The exception a failed download into {@code file} surfaces as: the stream's own cause, or a write failure. */
    static HybrisException unwrap(IOException e, Path file) {
        if (e instanceof ValueStreamException s) {
            return s.getCause();
        }
        String why;
        if (e instanceof java.nio.file.NoSuchFileException) {
            Path dir = file.toAbsolutePath().getParent();
            why = "the directory " + dir + " does not exist";
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            why = f.getReason();
        } else {
            why = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return new HybrisException("writing " + file + " failed: " + why, e);
    }
}
