/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP load balancer in front of several agents (as a service address in front of a cluster's servers): each
 * request goes to the next agent in turn, whatever connection it arrives on. Every answer closes its connection
 * ({@code Connection: close}), so a client never holds on to one agent. Requests must carry their body with a
 * {@code Content-Length} (as OkHttp sends them). For tests; one thread per request.
 */
final class RoundRobinHttpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final List<InetSocketAddress> upstreams;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong requests = new AtomicLong();

    /** Starts a proxy in front of the agents at {@code hostAndPorts}. */
    RoundRobinHttpProxy(List<String> hostAndPorts) throws IOException {
        upstreams = hostAndPorts.stream().map(a -> {
            int colon = a.lastIndexOf(':');
            return new InetSocketAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)));
        }).toList();
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "round-robin-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** The proxy's {@code host:port}. */
    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                Thread t = new Thread(() -> serve(client), "round-robin-request");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client; Socket server = new Socket()) {
            InputStream in = client.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            int length = 0;
            StringBuilder request = new StringBuilder();
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
                }
                if (!lower.startsWith("connection:")) {
                    request.append(line).append("\r\n");
                }
            }
            request.append("Connection: close\r\n\r\n");
            byte[] body = in.readNBytes(length);
            server.connect(upstreams.get((int) (requests.getAndIncrement() % upstreams.size())));
            OutputStream up = server.getOutputStream();
            up.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            up.write(body);
            up.flush();
            InputStream answer = server.getInputStream();
            String answerHead = readHead(answer);
            if (answerHead == null) {
                return;
            }
            StringBuilder rewritten = new StringBuilder();
            for (String line : answerHead.split("\r\n")) {
                if (!line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                    rewritten.append(line).append("\r\n");
                }
            }
            rewritten.append("Connection: close\r\n\r\n");
            OutputStream down = client.getOutputStream();
            down.write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
            answer.transferTo(down);
            down.flush();
        } catch (IOException e) {
            // a side closed: the client sees its connection end
        } finally {
            sockets.remove(client);
        }
    }

    /** The request or status line and headers, up to the blank line (not included); null at end of stream. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b; (b = in.read()) >= 0; ) {
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                String s = head.toString(StandardCharsets.ISO_8859_1);
                return s.substring(0, s.length() - 4);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
