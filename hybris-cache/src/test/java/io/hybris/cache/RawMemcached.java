/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tiny memcached text-protocol client for tests, independent of xmemcached: it plays the part of someone with
 * access to the cache server (overwrite an entry with wrong bytes, list every key and read every value).
 */
final class RawMemcached implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawMemcached(String address) throws IOException {
        int colon = address.lastIndexOf(':');
        socket = new Socket();
        socket.connect(new InetSocketAddress(address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1))), 5000);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void set(String key, byte[] value) throws IOException {
        out.write(("set " + key + " 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(value);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String reply = line();
        if (!reply.equals("STORED")) {
            throw new IOException("set " + key + " answered " + reply);
        }
    }

    Optional<byte[]> get(String key) throws IOException {
        out.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String header = line();
        if (header.equals("END")) {
            return Optional.empty();
        }
        String[] parts = header.split(" ");
        byte[] value = in.readNBytes(Integer.parseInt(parts[3]));
        line(); // the CRLF after the data
        String end = line();
        if (!end.equals("END")) {
            throw new IOException("get " + key + " did not end with END: " + end);
        }
        return Optional.of(value);
    }

    /** Every key in the server (memcached's LRU crawler metadump). */
    List<String> keys() throws IOException {
        out.write("lru_crawler metadump all\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        List<String> keys = new ArrayList<>();
        while (true) {
            String l = line();
            if (l.equals("END")) {
                return keys;
            }
            if (l.startsWith("key=")) {
                String k = l.substring(4, l.indexOf(' ') > 0 ? l.indexOf(' ') : l.length());
                keys.add(java.net.URLDecoder.decode(k, StandardCharsets.UTF_8));
            } else if (l.startsWith("ERROR") || l.startsWith("BUSY")) {
                throw new IOException("metadump answered " + l);
            }
        }
    }

    void flushAll() throws IOException {
        out.write("flush_all\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String reply = line();
        if (!reply.equals("OK")) {
            throw new IOException("flush_all answered " + reply);
        }
    }

    private String line() throws IOException {
        // replies end with CRLF, but metadump lines with LF alone
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("memcached closed the connection");
            }
            if (c == '\n') {
                String l = b.toString(StandardCharsets.US_ASCII);
                return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
            }
            b.write(c);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
