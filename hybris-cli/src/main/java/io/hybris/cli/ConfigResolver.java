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

    private static final String PROBE_ON_OPEN = "hybris.ranking.probe-on-open";
    private final Map<String, String> env;

    ConfigResolver(Map<String, String> env) {
        this.env = env;
    }

    Resolved resolve(Path configOption, Path dataDirOption) {
        return resolve(configOption, dataDirOption, false);
    }

    /**
     * As {@link #resolve(Path, Path)}; for a {@code oneShot} command (one call, then exit) the start-up probe is off
     * unless the file or the environment sets {@code hybris.ranking.probe-on-open}: a background probe would only
     * add requests to every cloud and hold up the exit (docs/cli.md).
     */
    Resolved resolve(Path configOption, Path dataDirOption, boolean oneShot) {
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
                Map<String, String> fileEnv = oneShot ? withoutStartupProbe(file) : env;
                return new Resolved(HybrisConfig.fromProperties(file, fileEnv), file.toString(), null);
            } catch (HybrisConfigurationException e) {
                throw new CliException(ExitCode.CONFIG, file + ": " + e.getMessage(), e);
            }
        }
        Path dir = dataDir(dataDirOption);
        return new Resolved(HybrisConfig.fromMap(embeddedDefault(dir), env),
                "the embedded default in " + dir, dir);
    }

    private Map<String, String> withoutStartupProbe(Path file) {
        String variable = HybrisConfig.environmentVariableFor(PROBE_ON_OPEN);
        if (env.containsKey(variable)) {
            return env;
        }
        java.util.Properties p = new java.util.Properties();
        try (java.io.Reader r = Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (java.io.IOException | IllegalArgumentException e) {
            return env; // HybrisConfig.fromProperties reports it
        }
        if (p.containsKey(PROBE_ON_OPEN)) {
            return env;
        }
        Map<String, String> out = new java.util.HashMap<>(env);
        out.put(variable, "false");
        return out;
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
