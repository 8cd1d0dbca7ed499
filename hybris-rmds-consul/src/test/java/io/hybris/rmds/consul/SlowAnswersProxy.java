/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of a server that holds back the start of each answer for a set delay (the injected fault:
 * a server that answers every request, slowly). Requests go through at once; the first bytes the server sends
 * after a request reach the client {@link #delayAnswers(Duration) the delay} later, the rest of the answer as it
 * comes. For tests only.
 */
final class SlowAnswersProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile long delayNanos;

    /** Starts a proxy in front of {@code hostAndPort}. */
    SlowAnswersProxy(String hostAndPort) throws IOException {
        int colon = hostAndPort.lastIndexOf(':');
        upstream = new InetSocketAddress(hostAndPort.substring(0, colon),
                Integer.parseInt(hostAndPort.substring(colon + 1)));
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "slow-answers-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** The proxy's {@code host:port}. */
    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Holds back the start of every answer from now on for {@code delay} (zero: none). */
    void delayAnswers(Duration delay) {
        delayNanos = delay.toNanos();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(upstream);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                AtomicBoolean requested = new AtomicBoolean();
                pump(client, server, requested, false);
                pump(server, client, requested, true);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean requested, boolean answers) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (!answers) {
                        requested.set(true);
                    } else if (requested.getAndSet(false) && delayNanos > 0) {
                        TimeUnit.NANOSECONDS.sleep(delayNanos); // the fault: the answer starts late
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // a side closed: close the other
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, answers ? "slow-answers-down" : "slow-answers-up");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(SlowAnswersProxy::closeQuietly);
    }
}
