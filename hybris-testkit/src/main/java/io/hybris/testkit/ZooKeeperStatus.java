/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * What a ZooKeeper server on loopback says about itself through the {@code srvr} four-letter command (enabled by
 * default), for tests that kill an ensemble's leader. Needs no ZooKeeper classes.
 */
public final class ZooKeeperStatus {
    private ZooKeeperStatus() {
    }

    /** The server's {@code srvr} answer, or empty if it does not answer within 2 s. */
    public static String srvr(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether the server on {@code port} is its ensemble's leader right now. */
    public static boolean isLeader(int port) {
        return srvr(port).contains("Mode: leader");
    }
}
