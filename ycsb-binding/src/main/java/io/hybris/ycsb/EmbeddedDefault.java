/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The embedded default, as in the quickstart: an in-process ZooKeeper for metadata and three clouds, tolerating
 * one faulty cloud ({@code f=1}). With directory clouds everything lives under the (kept) data directory; with
 * in-memory clouds ZooKeeper's data goes to a temporary directory deleted when the client closes, so metadata
 * never outlives the values it describes.
 */
final class EmbeddedDefault {
    static final String[] CLOUD_IDS = {"disk1", "disk2", "disk3"};

    private EmbeddedDefault() {
    }

    /** Opens the embedded default for {@code settings}. */
    static SharedClients.Opened open(BindingSettings settings) {
        boolean temporary = settings.cloudKind() == BindingSettings.EmbeddedCloudKind.MEMORY;
        Path dir;
        try {
            dir = temporary ? Files.createTempDirectory("hybris-ycsb-")
                    : Files.createDirectories(settings.embeddedDir()
                            .orElse(BindingSettings.DEFAULT_EMBEDDED_DIR).toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the embedded default's data directory "
                    + settings.embeddedDir().map(Path::toString).orElse("(temporary)") + ": " + e.getMessage(), e);
        }
        HybrisConfig.Builder builder = Hybris.builder()
                .f(1)
                .metadataStore("embedded-zookeeper", Map.of("data-dir", dir.resolve("zookeeper").toString()));
        for (String id : CLOUD_IDS) {
            if (settings.cloudKind() == BindingSettings.EmbeddedCloudKind.MEMORY) {
                builder.cloud(id, "memory", Map.of());
            } else {
                builder.cloud(id, "directory", Map.of("path", dir.resolve("cloud-" + id).toString()));
            }
        }
        Hybris hybris;
        try {
            hybris = Hybris.open(builder.build());
        } catch (RuntimeException e) {
            if (temporary) {
                deleteQuietly(dir, e);
            }
            throw e;
        }
        String description = "the embedded default (in-process ZooKeeper, 3 " + settings.cloudKind().name()
                .toLowerCase(java.util.Locale.ROOT) + " clouds, f=1) under " + dir;
        return new SharedClients.Opened(hybris, description, temporary ? () -> delete(dir) : () -> { });
    }

    private static void deleteQuietly(Path dir, RuntimeException primary) {
        try {
            delete(dir);
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
    }

    /** Deletes {@code dir} and everything below it. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the embedded default's temporary directory " + dir
                    + ": " + e.getMessage(), e);
        }
    }
}
