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
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A TCP proxy on a free loopback port in front of one server that can be <em>frozen</em>: while frozen it keeps
 * every connection open and accepts new ones but forwards nothing in either direction, as a server that stops
 * answering without closing its sockets (a hung process, a network partition that drops packets). What arrived
 * while frozen is forwarded after {@link #thaw()}. {@link #freezeAnswers()} holds only what the server sends, so
 * requests still reach it and are applied while their answers wait (with {@link #dropConnections()}: are lost). It
 * also counts the bytes it forwarded from the server ({@link #bytesFromServer()}) and received from its clients
 * ({@link #bytesFromClients()}: a request held while frozen is counted). For tests; two threads per
 * connection.
 */
public final class FreezableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String listenHost;
    private final String upstreamHost;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private final AtomicLong fromServer = new AtomicLong();
    private final AtomicLong fromClients = new AtomicLong();
    private boolean frozen;
    private boolean answersFrozen;
    private volatile boolean closed;

    /** Starts a proxy in front of {@code host:port}. */
    public FreezableProxy(String host, int port) throws IOException {
        this(host, port, InetAddress.getLoopbackAddress(), 0, "127.0.0.1");
    }

    /**
     * Starts a proxy in front of {@code host:port}, listening on port {@code listenPort} (0: a free one) of
     * {@code listenOn}.
     */
    public FreezableProxy(String host, int port, InetAddress listenOn, int listenPort) throws IOException {
        this(host, port, listenOn, listenPort, listenOn.getHostAddress());
    }

    private FreezableProxy(String host, int port, InetAddress listenOn, int listenPort, String listenHost)
            throws IOException {
        this.listenHost = listenHost;
        this.upstreamHost = host;
        this.upstreamPort = port;
        this.listener = new ServerSocket(listenPort, 50, listenOn);
        Thread acceptor = new Thread(this::accept, "freezable-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's {@code host:port}, for a connect string. */
    public String address() {
        return listenHost + ":" + listener.getLocalPort();
    }

    /** How many bytes the proxy has forwarded from the server to its clients. */
    public long bytesFromServer() {
        return fromServer.get();
    }

    /** How many bytes the proxy has received from its clients, forwarded or held while frozen. */
    public long bytesFromClients() {
        return fromClients.get();
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

    /**
     * Loses the answer to a request the server applies: runs {@code call} on a thread of its own (it or the caller
     * must {@link #freezeAnswers()} before its request goes out), waits up to 20 s for {@code applied} (the server
     * applied the request, seen by another client), runs {@code meanwhile}, then drops every connection, so the held
     * answer is lost, and thaws. Returns what {@code call} threw, or null; waits up to 60 s for it.
     */
    public Throwable loseAnswer(Callable<?> call, BooleanSupplier applied, Runnable meanwhile) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                call.call();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        }, "freezable-proxy-caller");
        caller.setDaemon(true);
        caller.start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!applied.getAsBoolean()) {
                if (System.nanoTime() - until > 0 || outcome.isDone()) {
                    throw new AssertionError("the request was not applied within 20 s"
                            + (outcome.isDone() ? "; the call ended: " + outcome.getNow(null) : ""));
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the poll's interval
            }
            meanwhile.run();
        } finally {
            dropConnections();
            thaw();
        }
        return outcome.get(60, TimeUnit.SECONDS);
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
                pump(client, server, fromClients, null);
                pump(server, client, null, fromServer);
            } catch (IOException e) {
                if (!closed) {
                    continue; // the upstream refused one connection: the client sees it closed and retries
                }
                return;
            }
        }
    }

    /** Forwards {@code from} to {@code to}, counting what it reads in {@code read}, what it sends in {@code sent}. */
    private void pump(Socket from, Socket to, AtomicLong read, AtomicLong sent) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (read != null) {
                        read.addAndGet(n);
                    }
                    awaitThawed(sent != null);
                    out.write(buffer, 0, n);
                    out.flush();
                    if (sent != null) {
                        sent.addAndGet(n);
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
