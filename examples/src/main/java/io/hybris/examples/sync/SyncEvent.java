/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import java.util.Objects;

/**
 * One thing a {@link SyncClient} did, reported to its {@link SyncSettings#listener() listener}: one event per
 * upload, download, deletion, conflict, resync or failure.
 *
 * @param kind   what happened
 * @param key    the file's key (its path relative to the synced folder, with '/'); empty for a resync
 * @param detail a short human-readable detail (the version, the conflicted copy's name, the error)
 */
public record SyncEvent(Kind kind, String key, String detail) {

    /** What a {@link SyncEvent} reports. */
    public enum Kind {
        /** A new or changed local file was committed to the container. */
        UPLOADED,
        /** A remote version was written into the folder. */
        DOWNLOADED,
        /** A local deletion was committed to the container. */
        DELETED_REMOTE,
        /** A remote deletion removed the local file. */
        DELETED_LOCAL,
        /** A lost race: both versions were kept, the local one under a "conflicted copy" name. */
        CONFLICT,
        /** The folder was reconciled with a listing of the container (first start, or an expired cursor). */
        RESYNCED,
        /** An operation failed; it is retried (the next scan, or the feed delivering the change again). */
        FAILED
    }

    public SyncEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(detail, "detail");
    }

    @Override
    public String toString() {
        String name = switch (kind) {
            case UPLOADED -> "uploaded";
            case DOWNLOADED -> "downloaded";
            case DELETED_REMOTE -> "deleted from the container:";
            case DELETED_LOCAL -> "deleted from the folder:";
            case CONFLICT -> "conflict";
            case RESYNCED -> "resynced";
            case FAILED -> "failed";
        };
        return name + (key.isEmpty() ? "" : " " + key) + (detail.isEmpty() ? "" : " (" + detail + ")");
    }
}
