/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the CLI's configuration comes from, first match wins:
 * <ol>
 *   <li>{@code --config FILE}, else the file named by {@code $HYBRIS_CONFIG}: a Hybris properties file;</li>
 *   <li>neither: the embedded default (an in-process ZooKeeper and three directory clouds, {@code f=1}) in the data
 *       directory: {@code --data-dir}, else {@code $HYBRIS_DATA_DIR}, else {@code ~/.hybris}.</li>
 * </ol>
 * In both cases every {@code hybris.*} key may be overridden by its environment variable
 * ({@code hybris.deadline} by {@code HYBRIS_DEADLINE}, ...), as for {@link HybrisConfig#fromProperties(Path)}.
 */
final class ConfigResolver {
    /** The environment variable naming a properties file when {@code --config} is absent. */
    static final String CONFIG_ENV = "HYBRIS_CONFIG";
    /** The environment variable naming the embedded default's data directory when {@code --data-dir} is absent. */
    static final String DATA_DIR_ENV = "HYBRIS_DATA_DIR";
    /** The embedded default's cloud ids. */
    static final String[] EMBEDDED_CLOUDS = {"disk1", "disk2", "disk3"};

    /**
     * A configuration, a short description of where it came from (for messages), and the embedded default's data
     * directory (null for a configuration file).
     */
    record Resolved(HybrisConfig config, String description, Path dataDir) {
    }

    private final Map<String, String> env;

    ConfigResolver(Map<String, String> env) {
        this.env = env;
    }

    Resolved resolve(Path configOption, Path dataDirOption) {
        Path file = configOption;
        String source = "--config";
        if (file == null && nonEmpty(env.get(CONFIG_ENV))) {
            file = Path.of(env.get(CONFIG_ENV));
            source = "$" + CONFIG_ENV;
        }
        if (file != null) {
            if (!Files.isRegularFile(file)) {
                throw new CliException(ExitCode.CONFIG, "configuration file " + file + " (from " + source + ") "
                        + (Files.exists(file) ? "is not a regular file" : "does not exist")
                        + "; pass an existing properties file with --config FILE");
            }
            if (!Files.isReadable(file)) {
                throw new CliException(ExitCode.CONFIG, "configuration file " + file + " (from " + source
                        + ") is not readable");
            }
            try {
                return new Resolved(HybrisConfig.fromProperties(file, env), file.toString(), null);
            } catch (HybrisConfigurationException e) {
                throw new CliException(ExitCode.CONFIG, file + ": " + e.getMessage(), e);
            }
        }
        Path dir = dataDir(dataDirOption);
        return new Resolved(HybrisConfig.fromMap(embeddedDefault(dir), env),
                "the embedded default in " + dir, dir);
    }

    /** The embedded default's data directory: the option, else {@code $HYBRIS_DATA_DIR}, else {@code ~/.hybris}. */
    Path dataDir(Path option) {
        Path dir = option;
        if (dir == null && nonEmpty(env.get(DATA_DIR_ENV))) {
            dir = Path.of(env.get(DATA_DIR_ENV));
        }
        if (dir == null) {
            dir = Path.of(System.getProperty("user.home"), ".hybris");
        }
        return dir.toAbsolutePath().normalize();
    }

    /** The embedded default's properties for a data directory. */
    static Map<String, String> embeddedDefault(Path dir) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("hybris.f", "1");
        p.put("hybris.rmds.type", "embedded-zookeeper");
        p.put("hybris.rmds.embedded-zookeeper.data-dir", dir.resolve("zookeeper").toString());
        for (String id : EMBEDDED_CLOUDS) {
            p.put("hybris.cloud." + id + ".type", "directory");
            p.put("hybris.cloud." + id + ".path", dir.resolve("cloud-" + id).toString());
        }
        return p;
    }

    private static boolean nonEmpty(String s) {
        return s != null && !s.isBlank();
    }
}
