/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code hybris.usage.file}: the shared client's cloud usage, written when the last thread cleans up. */
class UsageFileTest {
    @Test
    void theLastCleanupWritesEachCloudsCounts(@TempDir Path dir) throws Exception {
        Path usage = dir.resolve("usage.properties");
        Properties props = Records.props("hybris.embedded.clouds", "memory", "hybris.usage.file", usage.toString());
        HybrisClient first = Records.client(props);
        HybrisClient second = Records.client(props);
        first.insert("t", "k", Records.iterators(Records.record("f", "v")));
        Records.cleanup(first);
        assertThat(usage).doesNotExist(); // the client is still shared
        Records.cleanup(second);
        Properties written = load(usage);
        long puts = 0;
        for (String cloud : EmbeddedDefault.CLOUD_IDS) {
            for (String counter : new String[] {"put_list", "get_head", "delete", "bytes_in", "bytes_out"}) {
                assertThat(written.getProperty(cloud + "." + counter)).as(cloud + "." + counter).matches("\\d+");
            }
            puts += Long.parseLong(written.getProperty(cloud + ".put_list"));
        }
        assertThat(puts).isGreaterThanOrEqualTo(2); // one record on f+1 = 2 clouds
    }

    @Test
    void eachCounterIsTheClientsOwn(@TempDir Path dir) throws Exception {
        Path usage = dir.resolve("usage.properties");
        Properties props = Records.props("hybris.embedded.clouds", "memory", "hybris.usage.file", usage.toString());
        HybrisClient db = Records.client(props);
        SharedClients.Lease lease = SharedClients.acquire(BindingSettings.from(props));
        java.util.Map<String, io.hybris.cost.CloudUsage> seen;
        try {
            assertThat(db.insert("t", "k", Records.iterators(Records.record("f", "v".repeat(500)))))
                    .isEqualTo(site.ycsb.Status.OK);
            assertThat(db.read("t", "k", null, new java.util.HashMap<>())).isEqualTo(site.ycsb.Status.OK);
            Records.cleanup(db);
            seen = lease.hybris().cloudUsage();
        } finally {
            lease.release(); // the last reference: closes the client and writes the file
        }
        Properties written = load(usage);
        long in = 0;
        for (String cloud : EmbeddedDefault.CLOUD_IDS) {
            io.hybris.cost.CloudUsage u = seen.get(cloud);
            assertThat(written.getProperty(cloud + ".put_list")).isEqualTo(Long.toString(u.putListRequests()));
            assertThat(written.getProperty(cloud + ".get_head")).isEqualTo(Long.toString(u.getHeadRequests()));
            assertThat(written.getProperty(cloud + ".delete")).isEqualTo(Long.toString(u.deleteRequests()));
            assertThat(written.getProperty(cloud + ".bytes_in")).isEqualTo(Long.toString(u.bytesDownloaded()));
            assertThat(written.getProperty(cloud + ".bytes_out")).isEqualTo(Long.toString(u.bytesUploaded()));
            in += u.bytesDownloaded();
        }
        assertThat(in).as("the read downloaded the record").isGreaterThan(500);
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return p;
    }
}
