/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples.sync;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link SyncClient} runs. Immutable; start from {@link #defaults()} and change what you need:
 *
 * <pre>{@code
 * SyncSettings s = SyncSettings.defaults().withClientName("alice").withScanInterval(Duration.ofSeconds(5))
 *         .withListener(e -> System.out.println(e));
 * }</pre>
 *
 * @param clientName   the name in conflicted copies' names; null: the Hybris client's id
 * @param scanInterval how often the local folder is scanned for changes
 * @param watchFolder  whether a {@link java.nio.file.WatchService} also wakes the scanner as soon as a file changes
 * @param listener     receives every {@link SyncEvent}, on the thread that did the work (keep it quick)
 */
public record SyncSettings(String clientName, Duration scanInterval, boolean watchFolder,
                           Consumer<SyncEvent> listener) {

    public SyncSettings {
        Objects.requireNonNull(scanInterval, "scanInterval");
        Objects.requireNonNull(listener, "listener");
        if (scanInterval.isNegative() || scanInterval.isZero()) {
            throw new IllegalArgumentException("scanInterval must be positive, was " + scanInterval);
        }
        if (clientName != null && !clientName.matches("[^/\\\\\\p{Cntrl}]{1,64}")) {
            throw new IllegalArgumentException("clientName must be 1-64 characters without '/', '\\' or control"
                    + " characters (it goes into file names), was '" + clientName + "'");
        }
    }

    /** The Hybris client's id as the name, a scan every 2 s, a folder watch, no listener. */
    public static SyncSettings defaults() {
        return new SyncSettings(null, Duration.ofSeconds(2), true, e -> { });
    }

    /** These settings with {@code name} as the name in conflicted copies' names. */
    public SyncSettings withClientName(String name) {
        return new SyncSettings(name, scanInterval, watchFolder, listener);
    }

    /** These settings with a scan every {@code interval}. */
    public SyncSettings withScanInterval(Duration interval) {
        return new SyncSettings(clientName, interval, watchFolder, listener);
    }

    /** These settings with ({@code true}) or without a folder watch waking the scanner. */
    public SyncSettings withWatchFolder(boolean watch) {
        return new SyncSettings(clientName, scanInterval, watch, listener);
    }

    /** These settings with {@code events} receiving every {@link SyncEvent}. */
    public SyncSettings withListener(Consumer<SyncEvent> events) {
        return new SyncSettings(clientName, scanInterval, watchFolder, events);
    }
}
