/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Terminates TLS on a loopback port and forwards the plain bytes to a server (MinIO), so the driver can be tested
 * against an {@code https} endpoint with a certificate of a private CA. One thread per direction per connection.
 */
final class TlsProxy implements AutoCloseable {
    private final SSLServerSocket server;
    private final InetSocketAddress upstream;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /** Listens with the key pair in {@code keyStore} (PKCS#12) in front of {@code upstream}'s host and port. */
    TlsProxy(Path keyStore, char[] password, URI upstream) throws Exception {
        KeyStore ks = KeyStore.getInstance(keyStore.toFile(), password);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        this.server = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getLoopbackAddress());
        this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
        this.acceptor = new Thread(this::acceptLoop, "tls-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's {@code https} endpoint. */
    URI endpoint() {
        return URI.create("https://127.0.0.1:" + server.getLocalPort());
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket backend = new Socket();
                backend.connect(upstream, 5000);
                sockets.add(client);
                sockets.add(backend);
                pump(client, backend);
                pump(backend, client);
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // either side closed: end this direction
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tls-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
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
    public void close() {
        closeQuietly(server);
        sockets.forEach(TlsProxy::closeQuietly);
    }
}
