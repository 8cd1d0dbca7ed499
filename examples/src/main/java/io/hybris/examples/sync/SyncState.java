/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import io.hybris.ChangeCursor;
import io.hybris.VersionInfo;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a {@link SyncClient} last synced, persisted in a small properties file: per file the version and content
 * hash it last saw on both sides, and the change-feed cursor up to which remote changes are applied. Written
 * atomically (temporary file, then rename) by {@link #save()}. Not thread-safe: the client's lock guards it.
 */
final class SyncState {
    private static final String CURSOR = "cursor";
    private static final String FILE = "file.";

    /**
     * One synced file: the version last seen, its sequence, the SHA-256 of its content, and the local file's
     * size and modification time when it was last checked ({@code checkedAt}, for the racy-mtime rule of
     * {@link Reconciler}).
     */
    record Entry(String version, long sequence, String sha256, long size, long mtimeNanos, long checkedAtNanos) {
        static Entry of(VersionInfo v, String sha256, LocalFolder.Fingerprint local, long checkedAtNanos) {
            return new Entry(v.version(), v.sequence(), sha256, local.size(), local.mtimeNanos(), checkedAtNanos);
        }

        Entry checkedAgain(LocalFolder.Fingerprint local, long now) {
            return new Entry(version, sequence, sha256, local.size(), local.mtimeNanos(), now);
        }

        String format() {
            return version + " " + sequence + " " + sha256 + " " + size + " " + mtimeNanos + " " + checkedAtNanos;
        }

        static Entry parse(String text) {
            String[] f = text.split(" ");
            return new Entry(f[0], Long.parseLong(f[1]), f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
                    Long.parseLong(f[5]));
        }
    }

    private final Path file;
    private final Map<String, Entry> entries = new TreeMap<>();
    private ChangeCursor cursor;
    private boolean dirty;

    private SyncState(Path file) {
        this.file = file;
    }

    /** The state saved in {@code file}, or an empty one (no cursor: never synced) if there is none. */
    static SyncState load(Path file) {
        SyncState state = new SyncState(file);
        if (Files.exists(file)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sync state " + file, e);
            }
            for (String name : p.stringPropertyNames()) {
                if (name.startsWith(FILE)) {
                    state.entries.put(name.substring(FILE.length()), Entry.parse(p.getProperty(name)));
                }
            }
            String c = p.getProperty(CURSOR);
            state.cursor = c == null ? null : ChangeCursor.parse(c);
        }
        return state;
    }

    Entry get(String key) {
        return entries.get(key);
    }

    void put(String key, Entry entry) {
        entries.put(key, entry);
        dirty = true;
    }

    void remove(String key) {
        dirty |= entries.remove(key) != null;
    }

    /** The keys of the files synced (a copy). */
    Set<String> keys() {
        return Set.copyOf(entries.keySet());
    }

    /** Where to follow the change feed from; empty if the folder was never synced. */
    Optional<ChangeCursor> cursor() {
        return Optional.ofNullable(cursor);
    }

    void cursor(ChangeCursor next) {
        dirty |= !next.equals(cursor);
        cursor = next;
    }

    /** Writes the state if it changed since it was loaded or last saved. */
    void save() {
        if (!dirty) {
            return;
        }
        Properties p = new Properties();
        if (cursor != null) {
            p.setProperty(CURSOR, cursor.toString());
        }
        entries.forEach((key, e) -> p.setProperty(FILE + key, e.format()));
        try {
            // the directory is not created again: if the folder was removed, nothing should recreate it
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(out, "Hybris sync state: file.<key>=version sequence sha256 size mtime checked-at");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sync state " + file, e);
        }
        dirty = false;
    }
}
