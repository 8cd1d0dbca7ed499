/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.examples.sync.LocalFolder.Fingerprint;
import io.hybris.examples.sync.SyncEvent.Kind;
import io.hybris.examples.sync.SyncState.Entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The sync rules, applied under the {@link SyncClient}'s lock: local changes are committed conditionally on the
 * version last synced ({@link #scan}), remote versions are applied only over files unchanged since then
 * ({@link #applyRemote}), and a lost race keeps both sides (the winner under the name, the local edit as a
 * conflicted copy committed as a new file).
 *
 * <p>A file counts as unchanged if its size and modification time are those last recorded and that time was
 * more than 2 s before it was recorded (a file written within the same clock tick as it was checked would keep
 * its modification time: such a "racy" file is hashed again, as git does); otherwise its SHA-256 decides.
 */
final class Reconciler {
    private static final long RACY_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** A local file: its fingerprint before it was hashed, its hash, and whether it is as last synced. */
    private record Local(Path path, Fingerprint fingerprint, String sha256, boolean unchanged) {
    }

    private final LocalFolder folder;
    private final SyncState state;
    private final RemoteFiles remote;
    private final String clientName;
    private final Consumer<SyncEvent> events;

    Reconciler(LocalFolder folder, SyncState state, RemoteFiles remote, String clientName,
               Consumer<SyncEvent> events) {
        this.folder = folder;
        this.state = state;
        this.remote = remote;
        this.clientName = clientName;
        this.events = events;
    }

    /** Commits every new, changed or deleted local file; a failure is reported and retried on the next scan. */
    void scan() {
        if (!Files.isDirectory(folder.stateDir())) { // the folder was removed or unmounted: not a mass deletion
            emit(Kind.FAILED, "", "scan: " + folder.stateDir() + " is missing; nothing is synced until it is back");
            return;
        }
        for (Map.Entry<String, Path> f : folder.files().entrySet()) {
            try {
                Local local = inspect(f.getKey(), f.getValue());
                if (local != null && !local.unchanged()) {
                    commit(f.getKey(), local);
                }
            } catch (Exception e) {
                emit(Kind.FAILED, f.getKey(), "upload: " + e.getMessage());
            }
        }
        for (String key : state.keys()) {
            Path path = folder.pathOf(key).orElseThrow();
            try {
                if (LocalFolder.fingerprint(path).isEmpty()) {
                    deleteRemote(key, path);
                }
            } catch (Exception e) {
                emit(Kind.FAILED, key, "delete: " + e.getMessage());
            }
        }
        state.save();
    }

    /**
     * Applies version {@code v} of {@code key} (from the change feed, or a listing) to the folder. Throws if it
     * could not, so that the feed delivers the change again.
     */
    void applyRemote(String key, VersionInfo v) throws IOException {
        Optional<Path> path = folder.pathOf(key);
        Entry base = state.get(key);
        if (path.isEmpty() || base != null && (base.version().equals(v.version()) || v.sequence() < base.sequence())) {
            return; // not a file name; or our own commit's echo, or a version already applied or superseded
        }
        if (v.isDeletion()) {
            applyDeletion(key, path.get());
            return;
        }
        Local local = inspect(key, path.get());
        if (local != null && RemoteFiles.contentSha256(v).filter(local.sha256()::equals).isPresent()) {
            state.put(key, Entry.of(v, local.sha256(), local.fingerprint(), now())); // same bytes: nothing to do
        } else if (local == null || local.unchanged()) {
            download(key, path.get());
        } else {
            conflict(key, local);
        }
    }

    /** Reconciles the folder with a listing of the container (first start, or an expired feed cursor). */
    void resync() throws IOException {
        Set<String> live = new HashSet<>(remote.list());
        for (String key : live) {
            Optional<VersionInfo> v = remote.describe(key);
            if (v.isPresent()) {
                applyRemote(key, v.get());
            }
        }
        for (String key : state.keys()) {
            if (!live.contains(key)) {
                applyDeletion(key, folder.pathOf(key).orElseThrow());
            }
        }
        emit(Kind.RESYNCED, "", live.size() + " remote files");
        state.save();
    }

    private void applyDeletion(String key, Path path) throws IOException {
        if (state.get(key) == null) {
            return; // never synced here: a local file of that name is a new file, which the scanner uploads
        }
        Local local = inspect(key, path);
        state.remove(key);
        if (local == null) {
            return;
        }
        if (local.unchanged()) {
            folder.deleteWithEmptyParents(path);
            emit(Kind.DELETED_LOCAL, key, "");
        } else {
            emit(Kind.CONFLICT, key, "deleted remotely but edited here: the edit is kept and uploaded again");
            commit(key, local);
        }
    }

    /** Commits {@code local} under {@code key}: as a new file, or over the version last synced. */
    private void commit(String key, Local local) throws IOException {
        Entry base = state.get(key);
        PutOptions precondition = base == null ? PutOptions.ifAbsent() : PutOptions.ifMatch(base.version());
        try {
            VersionInfo v = remote.upload(key, local.path(), local.fingerprint().size(), local.sha256(), precondition);
            state.put(key, Entry.of(v, local.sha256(), local.fingerprint(), now()));
            emit(Kind.UPLOADED, key, describe(v));
        } catch (PreconditionFailedException e) {
            VersionInfo current = e.current().filter(v -> !v.isDeletion()).orElse(null);
            if (current == null && base != null) {
                state.remove(key); // deleted remotely meanwhile: the edit brings the file back
                commit(key, local);
            } else if (current == null) {
                throw e; // another client created and deleted it meanwhile: retried (after that deletion) next scan
            } else if (RemoteFiles.contentSha256(current).filter(local.sha256()::equals).isPresent()) {
                state.put(key, Entry.of(current, local.sha256(), local.fingerprint(), now()));
            } else {
                conflict(key, local);
            }
        }
    }

    /** Keeps both: the local edit moves to a conflicted copy (committed as a new file), the winner takes the name. */
    private void conflict(String key, Local local) throws IOException {
        String copyKey = folder.conflictedCopyKey(key, clientName, ZonedDateTime.now());
        Path copy = folder.pathOf(copyKey).orElseThrow();
        LocalFolder.move(local.path(), copy);
        emit(Kind.CONFLICT, key, "another client's version won; this side's edit is kept as " + copyKey);
        download(key, local.path());
        commit(copyKey, new Local(copy, local.fingerprint(), local.sha256(), false));
    }

    /** Deletes {@code key} remotely if it is still the version last synced; if not, restores the remote one. */
    private void deleteRemote(String key, Path path) throws IOException {
        try {
            remote.delete(key, state.get(key).version());
            state.remove(key);
            emit(Kind.DELETED_REMOTE, key, "");
        } catch (PreconditionFailedException e) {
            if (e.current().filter(v -> !v.isDeletion()).isEmpty()) {
                state.remove(key); // deleted on both sides
            } else {
                emit(Kind.CONFLICT, key, "deleted here but changed remotely: the remote version is restored");
                download(key, path);
            }
        }
    }

    /** Writes the current version of {@code key} into {@code path}; nothing if it has no value any more. */
    private void download(String key, Path path) throws IOException {
        Optional<RemoteFiles.Download> d = remote.download(key, path);
        if (d.isPresent()) {
            state.put(key, Entry.of(d.get().version(), d.get().sha256(), d.get().fingerprint(), now()));
            emit(Kind.DOWNLOADED, key, describe(d.get().version()));
        }
    }

    /** The file at {@code path} compared with the state's entry for {@code key}; null if there is no such file. */
    private Local inspect(String key, Path path) throws IOException {
        Optional<Fingerprint> fp = LocalFolder.fingerprint(path);
        if (fp.isEmpty()) {
            return null;
        }
        Fingerprint f = fp.get();
        Entry base = state.get(key);
        boolean sameFingerprint = base != null && base.size() == f.size() && base.mtimeNanos() == f.mtimeNanos();
        if (sameFingerprint && base.mtimeNanos() < base.checkedAtNanos() - RACY_NANOS) {
            return new Local(path, f, base.sha256(), true);
        }
        String sha;
        try {
            sha = LocalFolder.sha256(path);
        } catch (NoSuchFileException e) {
            return null;
        }
        boolean unchanged = base != null && sha.equals(base.sha256());
        if (unchanged) {
            state.put(key, base.checkedAgain(f, now()));
        }
        return new Local(path, f, sha, unchanged);
    }

    private void emit(Kind kind, String key, String detail) {
        events.accept(new SyncEvent(kind, key, detail));
    }

    private static String describe(VersionInfo v) {
        return v.size() + " bytes, version " + v.version();
    }

    private static long now() {
        Instant t = Instant.now();
        return TimeUnit.SECONDS.toNanos(t.getEpochSecond()) + t.getNano();
    }
}
