/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.HybrisConfigurationException;
import io.hybris.MetadataStoreException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A malformed connect string is refused at once, naming the option and what is wrong with it, instead of failing
 * inside the ZooKeeper client's connection thread and being reported, after start-timeout, as an ensemble that
 * cannot be reached; a chroot that does not exist is named as the problem.
 */
class ZooKeeperConnectStringTest {
    @RegisterExtension
    static final InProcessZooKeeper ZK = new InProcessZooKeeper();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1:2181/app/     | Path must not end with / character",
        "127.0.0.1:2181/a//b     | empty node name",
        "127.0.0.1:notaport      | a port is not a number",
        "127.0.0.1:99999         | port out of range",
        "',,,'                   | it names no server",
        ":2181                   | a server has no host name"})
    void aMalformedConnectStringIsAConfigurationErrorNamingTheProblem(String connect, String problem) {
        assertThatThrownBy(() -> ZooKeeperMetadataStore.builder().connect(connect)
                .startTimeout(Duration.ofSeconds(2)).build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("connect=" + connect + " is not a valid connect string")
                .hasMessageContaining(problem);
    }

    @Test
    void aChrootThatDoesNotExistIsNamedAsTheProblem() {
        String chroot = ZK.uniqueRoot("/missing-chroot-");
        assertThatThrownBy(() -> ZooKeeperMetadataStore.builder().connect(ZK.connectString() + chroot)
                .root("/hybris").build())
                .isInstanceOf(MetadataStoreException.class)
                .hasMessageContaining("the chroot " + chroot + " of connect does not exist");
    }

    @Test
    void aConnectStringWithAnExistingChrootWorks() throws Exception {
        String chroot = ZK.uniqueRoot("/chroot-");
        try (CuratorFramework plain = CuratorFrameworkFactory.newClient(ZK.connectString(), new RetryOneTime(100))) {
            plain.start();
            plain.create().forPath(chroot);
        }
        try (ZooKeeperMetadataStore store = ZooKeeperMetadataStore.builder().connect(ZK.connectString() + chroot)
                .root("/hybris").build()) {
            MetadataKey key = new MetadataKey("c", "k");
            store.conditionalUpdate(new MetadataUpdate(key, "v".getBytes(StandardCharsets.UTF_8),
                    MetadataVersion.ABSENT));
            assertThat(store.read(key)).isPresent();
        }
        try (CuratorFramework plain = CuratorFrameworkFactory.newClient(ZK.connectString(), new RetryOneTime(100))) {
            plain.start();
            assertThat(plain.checkExists().forPath(chroot + "/hybris/c/k")).isNotNull();
        }
    }
}
