/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Test helpers: YCSB records as byte maps, and initialised clients. */
final class Records {
    private Records() {
    }

    /** A record from alternating field names and string values. */
    static Map<String, byte[]> record(String... kv) {
        Map<String, byte[]> r = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            r.put(kv[i], kv[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    /** The record as YCSB hands it to a binding. */
    static HashMap<String, ByteIterator> iterators(Map<String, byte[]> record) {
        HashMap<String, ByteIterator> out = new HashMap<>();
        record.forEach((k, v) -> out.put(k, new ByteArrayByteIterator(v)));
        return out;
    }

    /** What a binding returned, as bytes. */
    static Map<String, byte[]> bytes(Map<String, ByteIterator> result) {
        Map<String, byte[]> out = new HashMap<>();
        result.forEach((k, v) -> out.put(k, v.toArray()));
        return out;
    }

    /** A new client with these properties, initialised. */
    static HybrisClient client(Properties props) throws DBException {
        HybrisClient c = new HybrisClient();
        c.setProperties(props);
        c.init();
        return c;
    }

    static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    /** Closes {@code db} without a checked exception. */
    static void cleanup(DB db) {
        try {
            db.cleanup();
        } catch (DBException e) {
            throw new IllegalStateException(e);
        }
    }
}
