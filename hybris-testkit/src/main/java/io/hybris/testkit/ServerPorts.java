/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for in-process servers that bind a port some time after it was chosen (curator-test's
 * ZooKeeper ensemble binds its client, quorum and election ports while it starts, and again on every restart).
 *
 * <p>A port found with {@code bind(0)} comes from the kernel's ephemeral range, the range every outgoing connection
 * on the machine takes its local port from, so between the choice and the bind another connection may take it: a
 * CI run ended when an ensemble server's bind failed that way and ZooKeeper exited the JVM. The ports chosen here
 * lie below that range ({@code /proc/sys/net/ipv4/ip_local_port_range}; 32768 when it is unreadable), where only a
 * server binding that very port explicitly can take it; each is checked free when chosen, and none is handed out
 * twice by this JVM.
 */
public final class ServerPorts {
    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private ServerPorts() {
    }

    /** A free loopback port below the ephemeral range, not handed out before by this JVM. */
    public static int next() {
        int top = ephemeralLow();
        if (top - LOWEST < 1000) {
            throw new IllegalStateException("the ephemeral port range starts at " + top
                    + ": too few ports below it for test servers");
        }
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, top);
            if (HANDED_OUT.add(port) && free(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + top + " after 1000 tries");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The first port of the kernel's ephemeral range. */
    static int ephemeralLow() {
        try {
            // read as lines: a /proc file reports size 0, which readString trusts
            String[] range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
                    .split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
