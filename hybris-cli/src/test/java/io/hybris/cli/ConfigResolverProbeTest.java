/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.StartupProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A one-shot CLI command does not probe the clouds at open unless the configuration asks (a background probe would
 * add requests to every cloud and hold up the exit); {@code serve} and {@code gateway} keep the library's default.
 */
class ConfigResolverProbeTest {
    @TempDir
    Path dir;

    private Path file(String extra) throws Exception {
        StringBuilder b = new StringBuilder("hybris.f=1\nhybris.rmds.type=memory\n");
        for (String id : new String[] {"a", "b", "c"}) {
            b.append("hybris.cloud.").append(id).append(".type=directory\n");
            b.append("hybris.cloud.").append(id).append(".path=").append(dir.resolve(id)).append('\n');
        }
        return Files.writeString(dir.resolve("hybris.properties"), b + extra);
    }

    @Test
    void oneShotCommandsTurnTheStartupProbeOffUnlessConfigured() throws Exception {
        Path plain = file("");
        assertThat(new ConfigResolver(Map.of()).resolve(plain, null, true).config().startupProbe())
                .isEqualTo(StartupProbe.OFF);
        assertThat(new ConfigResolver(Map.of()).resolve(plain, null, false).config().startupProbe())
                .as("serve and gateway").isEqualTo(StartupProbe.AUTO);
        assertThat(new ConfigResolver(Map.of("HYBRIS_RANKING_PROBE_ON_OPEN", "true")).resolve(plain, null, true)
                .config().startupProbe()).as("set in the environment").isEqualTo(StartupProbe.WAIT);
        Path configured = file("hybris.ranking.probe-on-open=auto\n");
        assertThat(new ConfigResolver(Map.of()).resolve(configured, null, true).config().startupProbe())
                .as("set in the file").isEqualTo(StartupProbe.AUTO);
    }
}
