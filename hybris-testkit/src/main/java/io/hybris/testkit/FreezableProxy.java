/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a free loopback port in front of one server that can be <em>frozen</em>: while frozen it keeps
 * every connection open and accepts new ones but forwards nothing in either direction, as a server that stops
 * answering without closing its sockets (a hung process, a network partition that drops packets). What arrived
 * while frozen is forwarded after {@link #thaw()}. {@link #freezeAnswers()} holds only what the server sends, so
 * requests still reach it and are applied while their answers wait (with {@link #dropConnections()}: are lost). It
 * also counts the bytes it forwarded from the server ({@link #bytesFromServer()}). For tests; two threads per
 * connection.
 */
public final class FreezableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String upstreamHost;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private final AtomicLong fromServer = new AtomicLong();
    private boolean frozen;
    private boolean answersFrozen;
    private volatile boolean closed;

    /** Starts a proxy in front of {@code host:port}. */
    public FreezableProxy(String host, int port) throws IOException {
        this.upstreamHost = host;
        this.upstreamPort = port;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "freezable-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's {@code host:port}, for a connect string. */
    public String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** How many bytes the proxy has forwarded from the server to its clients. */
    public long bytesFromServer() {
        return fromServer.get();
    }

    /** Stops forwarding (connections stay open). */
    public void freeze() {
        synchronized (gate) {
            frozen = true;
        }
    }

    /** Stops forwarding what the server sends (requests still reach it; connections stay open). */
    public void freezeAnswers() {
        synchronized (gate) {
            answersFrozen = true;
        }
    }

    /** Forwards again in both directions, starting with what was held. */
    public void thaw() {
        synchronized (gate) {
            frozen = false;
            answersFrozen = false;
            gate.notifyAll();
        }
    }

    /** Closes every connection made so far (the clients see them drop, and connect again through the proxy). */
    public void dropConnections() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(upstreamHost, upstreamPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, null);
                pump(server, client, fromServer);
            } catch (IOException e) {
                if (!closed) {
                    continue; // the upstream refused one connection: the client sees it closed and retries
                }
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicLong counted) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitThawed(counted != null);
                    out.write(buffer, 0, n);
                    out.flush();
                    if (counted != null) {
                        counted.addAndGet(n);
                    }
                }
            } catch (IOException | InterruptedException e) {
                // a side closed, or the proxy: close both
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "freezable-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void awaitThawed(boolean fromServer) throws InterruptedException {
        synchronized (gate) {
            while ((frozen || fromServer && answersFrozen) && !closed) {
                gate.wait();
            }
        }
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
        closed = true;
        thaw();
        listener.close();
        sockets.forEach(FreezableProxy::closeQuietly);
    }
}
