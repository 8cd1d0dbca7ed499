/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Vector;

import static io.hybris.ycsb.Records.iterators;
import static io.hybris.ycsb.Records.record;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deployment configured by a Hybris properties file ({@code hybris.config}) whose two directory clouds break
 * after the first write: writes find fewer than f+1 clouds and reads run into the deadline, both
 * SERVICE_UNAVAILABLE; a missing record is still NOT_FOUND (metadata alone says so).
 */
class ServiceUnavailableTest {

    @Test
    void brokenCloudsMakeCallsServiceUnavailable(@TempDir Path dir) throws IOException, DBException {
        Path config = dir.resolve("hybris.properties");
        Files.writeString(config, String.join("\n",
                "hybris.f=1",
                "hybris.deadline=2s",
                "hybris.timer.initial=250ms",
                "hybris.rmds.type=embedded-zookeeper",
                "hybris.rmds.embedded-zookeeper.data-dir=" + dir.resolve("zk"),
                "hybris.cloud.d1.type=directory",
                "hybris.cloud.d1.path=" + dir.resolve("d1"),
                "hybris.cloud.d2.type=directory",
                "hybris.cloud.d2.path=" + dir.resolve("d2")), StandardCharsets.UTF_8);
        HybrisClient db = Records.client(Records.props("hybris.config", config.toString(),
                "hybris.container", "broken"));
        try {
            assertThat(db.insert("t", "user1", iterators(record("a", "1")))).isEqualTo(Status.OK);
            for (String cloud : new String[] {"d1", "d2"}) { // each cloud's directory becomes a plain file
                EmbeddedDefault.delete(dir.resolve(cloud));
                Files.writeString(dir.resolve(cloud), "not a directory");
            }
            assertThat(db.insert("t", "user2", iterators(record("a", "2")))).isEqualTo(Status.SERVICE_UNAVAILABLE);
            assertThat(db.update("t", "user1", iterators(record("a", "3")))).isEqualTo(Status.SERVICE_UNAVAILABLE);
            assertThat(db.read("t", "user1", null, new HashMap<>())).isEqualTo(Status.SERVICE_UNAVAILABLE);
            assertThat(db.scan("t", "user1", 2, null, new Vector<>())).isEqualTo(Status.SERVICE_UNAVAILABLE);
            assertThat(db.read("t", "user2", null, new HashMap<>())).as("nothing was committed")
                    .isEqualTo(Status.NOT_FOUND);
        } finally {
            Records.cleanup(db);
        }
    }
}
