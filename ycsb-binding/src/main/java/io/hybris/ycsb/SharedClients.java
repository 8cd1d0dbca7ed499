/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.Hybris;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One Hybris client per deployment, shared by all YCSB threads of a JVM. YCSB creates one {@link HybrisClient}
 * per thread and calls {@code init()} and {@code cleanup()} on each; every {@code init()} takes a
 * {@link Lease}, and the client is closed when the last lease is released. Thread-safe.
 */
final class SharedClients {
    private static final Logger LOG = LoggerFactory.getLogger(SharedClients.class);
    private static final Map<String, Shared> OPEN = new HashMap<>();

    private SharedClients() {
    }

    /**
     * A freshly opened client and what to do after closing it.
     *
     * @param hybris      the client
     * @param description what it is connected to, for log and error messages
     * @param afterClose  run once the client is closed (e.g. delete a temporary directory)
     */
    record Opened(Hybris hybris, String description, Runnable afterClose) {
        Opened {
            Objects.requireNonNull(hybris, "hybris");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(afterClose, "afterClose");
        }
    }

    /** One reference to the shared client; {@link #release()} is idempotent. */
    static final class Lease {
        private final String key;
        private final Shared shared;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(String key, Shared shared) {
            this.key = key;
            this.shared = shared;
        }

        /** The shared client. */
        Hybris hybris() {
            return shared.opened.hybris();
        }

        /** What the shared client is connected to. */
        String description() {
            return shared.opened.description();
        }

        /** Gives the reference back; the last one closes the client. */
        void release() {
            if (released.compareAndSet(false, true)) {
                SharedClients.release(key, shared);
            }
        }
    }

    private static final class Shared {
        final Opened opened;
        final Optional<Path> usageFile;
        int references;

        Shared(Opened opened, Optional<Path> usageFile) {
            this.opened = opened;
            this.usageFile = usageFile;
        }
    }

    /** Takes a reference to the client for {@code settings}, opening it if this is the first. */
    static synchronized Lease acquire(BindingSettings settings) {
        String key = settings.deploymentKey();
        Shared shared = OPEN.get(key);
        if (shared == null) {
            long start = System.nanoTime();
            shared = new Shared(open(settings), settings.usageFile());
            OPEN.put(key, shared);
            LOG.info("Hybris YCSB binding: opened {} in {} ms", shared.opened.description(),
                    (System.nanoTime() - start) / 1_000_000);
        }
        shared.references++;
        return new Lease(key, shared);
    }

    /** How many YCSB threads hold the client for {@code settings} (0 when it is closed). */
    static synchronized int references(BindingSettings settings) {
        Shared shared = OPEN.get(settings.deploymentKey());
        return shared == null ? 0 : shared.references;
    }

    private static Opened open(BindingSettings settings) {
        if (settings.configFile().isEmpty()) {
            return EmbeddedDefault.open(settings);
        }
        java.nio.file.Path file = settings.configFile().get();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(BindingSettings.CONFIG + "=" + file + ": no such file (working"
                    + " directory " + java.nio.file.Path.of("").toAbsolutePath() + "); give the path of a Hybris"
                    + " properties file, or leave " + BindingSettings.CONFIG + " unset for the embedded default");
        }
        return new Opened(Hybris.fromProperties(file), "the deployment configured in " + file.toAbsolutePath(),
                () -> { });
    }

    /** Writes the closed client's per-cloud usage to {@code file} ({@link BindingSettings#USAGE_FILE}). */
    private static void writeUsage(Hybris hybris, Path file) {
        StringBuilder b = new StringBuilder("# Hybris cloud usage of one YCSB run (Hybris.cloudUsage())\n");
        hybris.cloudUsage().forEach((cloud, u) -> b.append(cloud).append(".put_list=").append(u.putListRequests())
                .append('\n').append(cloud).append(".get_head=").append(u.getHeadRequests()).append('\n')
                .append(cloud).append(".delete=").append(u.deleteRequests()).append('\n')
                .append(cloud).append(".bytes_in=").append(u.bytesDownloaded()).append('\n')
                .append(cloud).append(".bytes_out=").append(u.bytesUploaded()).append('\n'));
        try {
            Files.writeString(file, b);
        } catch (java.io.IOException e) {
            LOG.warn("Hybris YCSB binding: could not write the cloud usage to {}: {}", file, e.toString());
        }
    }

    private static synchronized void release(String key, Shared shared) {
        shared.references--;
        if (shared.references > 0) {
            return;
        }
        OPEN.remove(key, shared);
        try {
            shared.opened.hybris().close();
            shared.usageFile.ifPresent(file -> writeUsage(shared.opened.hybris(), file));
        } finally {
            shared.opened.afterClose().run();
            LOG.info("Hybris YCSB binding: closed {}", shared.opened.description());
        }
    }
}
