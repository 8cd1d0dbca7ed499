/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import site.ycsb.DBException;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The binding's YCSB properties ({@code -p name=value} or a {@code -P} file), parsed and checked once per
 * {@link HybrisClient#init()}. Immutable.
 *
 * <table>
 * <caption>properties</caption>
 * <tr><th>property</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code hybris.config}</td><td>none</td><td>a Hybris properties file; without it the embedded default
 * runs (in-process ZooKeeper, three directory clouds, f=1)</td></tr>
 * <tr><td>{@code hybris.container}</td><td>{@code ycsb}</td><td>the Hybris container holding every YCSB table;
 * a record is the key {@code <table>/<ycsb key>}</td></tr>
 * <tr><td>{@code hybris.scan.page-size}</td><td>{@code 100}</td><td>keys per metadata LIST page of a scan (1 to
 * 10,000)</td></tr>
 * <tr><td>{@code hybris.embedded.dir}</td><td>{@code hybris-ycsb-data} in the working directory</td>
 * <td>embedded default with directory clouds: where ZooKeeper and the three clouds keep their data; it is kept,
 * so {@code ycsb load} and a later {@code ycsb run} see the same records</td></tr>
 * <tr><td>{@code hybris.embedded.clouds}</td><td>{@code directory}</td><td>embedded default only:
 * {@code directory}, or {@code memory} (three in-memory clouds and ZooKeeper in a temporary directory, all gone
 * at the last cleanup: for a load and run in one JVM)</td></tr>
 * <tr><td>{@code hybris.usage.file}</td><td>none</td><td>when the shared client closes, write its per-cloud
 * request and byte counts ({@code Hybris.cloudUsage()}) to this file as properties
 * ({@code <cloud>.put_list}, {@code .get_head}, {@code .delete}, {@code .bytes_in}, {@code .bytes_out}), for
 * pricing a run (bench/cost.sh)</td></tr>
 * </table>
 *
 * <p>Any other YCSB property starting with {@code hybris.} is rejected as a likely typo; Hybris's own settings
 * belong in the file named by {@code hybris.config}.
 *
 * @param configFile   the Hybris properties file, or empty for the embedded default
 * @param container    the container name
 * @param scanPageSize keys per LIST page
 * @param embeddedDir  the embedded default's data directory (directory clouds only)
 * @param cloudKind    the embedded default's kind of cloud
 * @param usageFile    where to write the client's cloud usage when it closes, if anywhere
 */
record BindingSettings(Optional<Path> configFile, String container, int scanPageSize, Optional<Path> embeddedDir,
                       EmbeddedCloudKind cloudKind, Optional<Path> usageFile) {
    static final String CONFIG = "hybris.config";
    static final String CONTAINER = "hybris.container";
    static final String SCAN_PAGE_SIZE = "hybris.scan.page-size";
    static final String EMBEDDED_DIR = "hybris.embedded.dir";
    static final String EMBEDDED_CLOUDS = "hybris.embedded.clouds";
    static final String USAGE_FILE = "hybris.usage.file";
    static final Set<String> NAMES = Set.of(CONFIG, CONTAINER, SCAN_PAGE_SIZE, EMBEDDED_DIR, EMBEDDED_CLOUDS,
            USAGE_FILE);

    static final String DEFAULT_CONTAINER = "ycsb";
    static final int DEFAULT_SCAN_PAGE_SIZE = 100;
    static final int MAX_SCAN_PAGE_SIZE = 10_000;
    static final Path DEFAULT_EMBEDDED_DIR = Path.of("hybris-ycsb-data");
    private static final Pattern CONTAINER_NAME = Pattern.compile("[a-z0-9-]{1,63}");

    /** The kind of cloud the embedded default uses. */
    enum EmbeddedCloudKind {
        /** Three directories under the data directory (as the quickstart). */
        DIRECTORY,
        /** Three in-memory clouds and ZooKeeper in a temporary directory (all lost at the last cleanup). */
        MEMORY
    }

    /** Parses and checks the properties. */
    static BindingSettings from(Properties props) throws DBException {
        Set<String> unknown = new TreeSet<>();
        for (String name : props.stringPropertyNames()) {
            if (name.startsWith("hybris.") && !NAMES.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new DBException("unknown YCSB propert" + (unknown.size() == 1 ? "y " : "ies ") + unknown
                    + " for the Hybris binding; it knows " + new TreeSet<>(NAMES) + ". Put Hybris settings in a"
                    + " properties file and name it with -p " + CONFIG + "=<file>");
        }
        Optional<Path> config = nonBlank(props, CONFIG).map(Path::of);
        String container = nonBlank(props, CONTAINER).orElse(DEFAULT_CONTAINER);
        if (!CONTAINER_NAME.matcher(container).matches()) {
            throw new DBException(CONTAINER + "=" + container + " is not a valid Hybris container name: use 1 to 63"
                    + " characters of a-z, 0-9 and '-'");
        }
        int pageSize = DEFAULT_SCAN_PAGE_SIZE;
        Optional<String> page = nonBlank(props, SCAN_PAGE_SIZE);
        if (page.isPresent()) {
            try {
                pageSize = Integer.parseInt(page.get());
            } catch (NumberFormatException e) {
                pageSize = -1;
            }
            if (pageSize < 1 || pageSize > MAX_SCAN_PAGE_SIZE) {
                throw new DBException(SCAN_PAGE_SIZE + "=" + page.get() + " must be a whole number from 1 to "
                        + MAX_SCAN_PAGE_SIZE);
            }
        }
        Optional<Path> embeddedDir = nonBlank(props, EMBEDDED_DIR).map(Path::of);
        EmbeddedCloudKind kind = EmbeddedCloudKind.DIRECTORY;
        Optional<String> clouds = nonBlank(props, EMBEDDED_CLOUDS);
        if (clouds.isPresent()) {
            try {
                kind = EmbeddedCloudKind.valueOf(clouds.get().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new DBException(EMBEDDED_CLOUDS + "=" + clouds.get() + " is not known: use directory or"
                        + " memory");
            }
        }
        if (config.isPresent() && (embeddedDir.isPresent() || clouds.isPresent())) {
            throw new DBException(EMBEDDED_DIR + " and " + EMBEDDED_CLOUDS + " apply to the embedded default"
                    + " only, but " + CONFIG + " is set too: remove one or the other");
        }
        if (kind == EmbeddedCloudKind.MEMORY && embeddedDir.isPresent()) {
            throw new DBException(EMBEDDED_DIR + " keeps data between runs, which in-memory clouds cannot: use "
                    + EMBEDDED_CLOUDS + "=directory with it, or drop it");
        }
        if (config.isEmpty() && kind == EmbeddedCloudKind.DIRECTORY && embeddedDir.isEmpty()) {
            embeddedDir = Optional.of(DEFAULT_EMBEDDED_DIR);
        }
        return new BindingSettings(config, container, pageSize, embeddedDir, kind,
                nonBlank(props, USAGE_FILE).map(Path::of));
    }

    /**
     * Identifies the deployment these settings open, so that YCSB's threads (one {@link HybrisClient} each)
     * share one Hybris client per deployment.
     */
    String deploymentKey() {
        if (configFile.isPresent()) {
            return "config:" + configFile.get().toAbsolutePath().normalize();
        }
        if (cloudKind == EmbeddedCloudKind.MEMORY) {
            return "embedded:memory";
        }
        return "embedded:" + embeddedDir.orElse(DEFAULT_EMBEDDED_DIR).toAbsolutePath().normalize();
    }

    private static Optional<String> nonBlank(Properties props, String name) {
        String value = props.getProperty(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
