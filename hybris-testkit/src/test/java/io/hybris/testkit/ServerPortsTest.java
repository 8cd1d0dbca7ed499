/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ServerPortsTest {
    @Test
    void portsAreBelowTheEphemeralRangeDistinctAndBindable() throws Exception {
        int ephemeralLow = ServerPorts.ephemeralLow();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            int port = ServerPorts.next();
            assertThat(port).isBetween(10_000, ephemeralLow - 1);
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }
}
