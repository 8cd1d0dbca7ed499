/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;

/**
 * Wakes the scanner as soon as something changes in the synced folder: a {@link WatchService} on the folder and
 * each directory under it (new directories are added as they appear), on a daemon thread of its own. Only a
 * hint: the periodic scan still finds every change if an event is lost (an overflow, an unsupported file system).
 */
final class FolderWatcher implements AutoCloseable {
    private final LocalFolder folder;
    private final Runnable onChange;
    private final WatchService watch;
    private final Thread thread;

    private FolderWatcher(LocalFolder folder, Runnable onChange) throws IOException {
        this.folder = folder;
        this.onChange = onChange;
        this.watch = folder.root().getFileSystem().newWatchService();
        registerTree(folder.root());
        this.thread = new Thread(this::run, "hybris-sync-watch-" + folder.root().getFileName());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Watches {@code folder}, calling {@code onChange} after each batch of events. */
    static FolderWatcher start(LocalFolder folder, Runnable onChange) throws IOException {
        return new FolderWatcher(folder, onChange);
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                Path dir = (Path) key.watchable();
                boolean relevant = false;
                for (WatchEvent<?> event : key.pollEvents()) {
                    if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                        relevant = true;
                        continue;
                    }
                    Path child = dir.resolve((Path) event.context());
                    if (child.startsWith(folder.stateDir())) {
                        continue;
                    }
                    relevant = true;
                    if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(child)) {
                        try {
                            registerTree(child);
                        } catch (IOException | UncheckedIOException e) {
                            // it vanished again: nothing to watch
                        }
                    }
                }
                key.reset();
                if (relevant) {
                    onChange.run();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    /** Watches {@code dir} and each directory under it but the state directory; one that vanishes is left out. */
    private void registerTree(Path dir) throws IOException {
        folder.walk(dir, d -> d.register(watch, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE), file -> { });
    }

    @Override
    public void close() throws IOException {
        watch.close();
        thread.interrupt();
    }
}
