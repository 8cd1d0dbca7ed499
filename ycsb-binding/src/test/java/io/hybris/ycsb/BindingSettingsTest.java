/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BindingSettingsTest {

    @Test
    void defaultsAreTheEmbeddedDefaultWithContainerYcsb() throws DBException {
        Properties p = new Properties();
        p.setProperty("recordcount", "10"); // YCSB's own properties are none of the binding's business
        BindingSettings s = BindingSettings.from(p);
        assertThat(s).isEqualTo(new BindingSettings(Optional.empty(), "ycsb", 100,
                Optional.of(Path.of("hybris-ycsb-data")), BindingSettings.EmbeddedCloudKind.DIRECTORY,
                Optional.empty()));
        assertThat(s.deploymentKey()).isEqualTo("embedded:" + Path.of("hybris-ycsb-data").toAbsolutePath());
    }

    @Test
    void everySettingIsRead() throws DBException {
        Properties p = props("hybris.config", "conf/h.properties", "hybris.container", "bench-1",
                "hybris.scan.page-size", "7");
        BindingSettings s = BindingSettings.from(p);
        assertThat(s.configFile()).contains(Path.of("conf/h.properties"));
        assertThat(s.container()).isEqualTo("bench-1");
        assertThat(s.scanPageSize()).isEqualTo(7);
        assertThat(s.deploymentKey()).isEqualTo("config:" + Path.of("conf/h.properties").toAbsolutePath());

        BindingSettings d = BindingSettings.from(props("hybris.embedded.dir", "/data/x/../y",
                "hybris.embedded.clouds", "directory"));
        assertThat(d.embeddedDir()).contains(Path.of("/data/x/../y"));
        assertThat(d.deploymentKey()).isEqualTo("embedded:/data/y");

        BindingSettings m = BindingSettings.from(props("hybris.embedded.clouds", "Memory"));
        assertThat(m.embeddedDir()).isEmpty();
        assertThat(m.cloudKind()).isEqualTo(BindingSettings.EmbeddedCloudKind.MEMORY);
        assertThat(m.deploymentKey()).isEqualTo("embedded:memory");
    }

    @Test
    void mistakesAreNamed() {
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.contaner", "x")))
                .isInstanceOf(DBException.class)
                .hasMessage("unknown YCSB property [hybris.contaner] for the Hybris binding; it knows"
                        + " [hybris.config, hybris.container, hybris.embedded.clouds, hybris.embedded.dir,"
                        + " hybris.scan.page-size, hybris.usage.file]. Put Hybris settings in a properties file"
                        + " and name it with -p hybris.config=<file>");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.container", "User_Table")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.container=User_Table is not a valid Hybris container name: use 1 to 63"
                        + " characters of a-z, 0-9 and '-'");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.scan.page-size", "0")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.scan.page-size=0 must be a whole number from 1 to 10000");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.scan.page-size", "ten")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.scan.page-size=ten must be a whole number from 1 to 10000");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.embedded.clouds", "s3")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.embedded.clouds=s3 is not known: use directory or memory");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.config", "h.properties",
                "hybris.embedded.clouds", "memory")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.embedded.dir and hybris.embedded.clouds apply to the embedded default only,"
                        + " but hybris.config is set too: remove one or the other");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.embedded.dir", "/data/x",
                "hybris.embedded.clouds", "memory")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.embedded.dir keeps data between runs, which in-memory clouds cannot: use"
                        + " hybris.embedded.clouds=directory with it, or drop it");
    }

    @Test
    void scanPageSizeBoundsAreInclusiveAndEveryOtherHybrisPropertyIsATypo() throws DBException {
        assertThat(BindingSettings.from(props("hybris.scan.page-size", "10000")).scanPageSize()).isEqualTo(10_000);
        assertThat(BindingSettings.from(props("hybris.scan.page-size", "1")).scanPageSize()).isEqualTo(1);
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.scan.page-size", "10001")))
                .isInstanceOf(DBException.class)
                .hasMessage("hybris.scan.page-size=10001 must be a whole number from 1 to 10000");
        assertThatThrownBy(() -> BindingSettings.from(props("hybris.scan.pagesize", "7")))
                .isInstanceOf(DBException.class)
                .hasMessageStartingWith("unknown YCSB property [hybris.scan.pagesize]");
    }

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }
}
