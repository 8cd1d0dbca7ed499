/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ValueStream;
import io.hybris.ValueStreamException;
import io.hybris.VersionInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code hybris get CONTAINER KEY [FILE|-]}: writes a value to a file, verified, then renamed into place. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Write a value to FILE (default: the key's last path segment in the current directory; "
                + "- for standard output). The file is replaced only once every byte is verified.")
final class GetCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Parameters(index = "0", paramLabel = "CONTAINER")
    String container;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Parameters(index = "2", arity = "0..1", paramLabel = "FILE")
    String file;

    @Override
    public Integer call() throws IOException {
        Session session = root.session;
        if ("-".equals(file)) {
            if (session.json()) {
                throw CliException.usage("get to standard output writes the value there; --json needs a FILE");
            }
            return CatCommand.copyToStdout(session, container, key, io.hybris.ByteRange.all());
        }
        Path target = Path.of(file != null ? file : defaultName(key));
        if (Files.isDirectory(target)) {
            target = target.resolve(defaultName(key));
        }
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw CliException.usage("cannot write " + target + ": directory " + parent + " does not exist");
        }
        Optional<VersionInfo> got = viaStream(session, target);
        VersionInfo v = got.orElseThrow(() -> CliException.notFound(container, key));
        Path written = target;
        Map<String, Object> doc = VersionView.json(container, key, v);
        doc.put("file", written.toString());
        session.emit(doc, () -> session.out().println("got " + container + "/" + key + " -> " + written + ": "
                + VersionView.summary(v)));
        return ExitCode.OK;
    }

    /**
     * What {@code getTo} does (a temporary file beside the target, renamed over it once every byte is verified),
     * with a progress line when one is drawn, and with the temporary file deleted also when the process is stopped
     * (Ctrl-C, SIGTERM) in the middle: {@code getTo}'s own temporary file would stay behind, as large as what had
     * arrived.
     */
    private Optional<VersionInfo> viaStream(Session session, Path target) throws IOException {
        Optional<ValueStream> in = session.hybris().getStream(container, key);
        if (in.isEmpty()) {
            return Optional.empty();
        }
        // as getTo does: a short temporary name (any valid target name fits), the umask's permissions, or those of
        // the file replaced
        Path dir = target.toAbsolutePath().getParent();
        String name = target.getFileName().toString();
        String stem = "." + name.substring(0, name.offsetByCodePoints(0, Math.min(32,
                name.codePointCount(0, name.length())))) + ".";
        Path tmp = dir.resolve(stem + ProcessHandle.current().pid() + "." + System.nanoTime() + ".part");
        // a get killed (SIGKILL) before: no hook deleted its partial file; those untouched for an hour go now
        io.hybris.spi.support.LeftoverFiles.deleteAbandoned(dir, stem, ".part");
        Thread cleanup = new Thread(() -> deleteQuietly(tmp), "hybris-get-cleanup");
        try (ValueStream stream = in.get()) {
            Runtime.getRuntime().addShutdownHook(cleanup);
            Files.createFile(tmp, permissionsOf(target)); // a private file's new contents stay private meanwhile
            try (Progress progress = session.transfer("get " + container + "/" + key, stream.length(), false);
                 OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE)) {
                stream.transferTo(new CountingOutputStream(out, progress));
                out.close();
                try {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                }
                return Optional.of(stream.version());
            }
        } catch (ValueStreamException e) {
            throw e.getCause(); // the read's own failure, as getTo reports it
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // shutting down: the hook deletes the temporary file
                }
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the process is exiting: nothing more to do
        }
    }

    /** The POSIX permissions of an existing {@code target} as a creation attribute (none: the umask's defaults). */
    private static java.nio.file.attribute.FileAttribute<?>[] permissionsOf(Path target) {
        try {
            if (Files.exists(target)) {
                return new java.nio.file.attribute.FileAttribute<?>[] {
                    java.nio.file.attribute.PosixFilePermissions.asFileAttribute(Files.getPosixFilePermissions(target))};
            }
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system, or the target went meanwhile
        }
        return new java.nio.file.attribute.FileAttribute<?>[0];
    }

    static String defaultName(String key) {
        String name = key.substring(key.lastIndexOf('/') + 1);
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw CliException.usage("the key " + key + " has no file name; give the FILE to write");
        }
        return name;
    }
}
