/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.VersionedValue;
import org.kiwiproject.consul.model.kv.Value;
import org.kiwiproject.consul.util.Jackson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * How Hybris keys map onto Consul KV entries (see {@link ConsulMetadataStore}'s layout): key names, versions,
 * check-and-set indexes, and the operations of {@code /v1/txn} transactions, written as JSON with Jackson.
 * Immutable and thread-safe.
 */
final class ConsulKv {
    private static final Logger LOG = LoggerFactory.getLogger(ConsulMetadataStore.class);
    private static final byte[] EMPTY = new byte[0];

    private final String prefix;
    private final String description;

    /**
     * @param prefix      the key prefix, without leading or trailing slash
     * @param description the store's description, for log lines
     */
    ConsulKv(String prefix, String description) {
        this.prefix = prefix;
        this.description = description;
    }

    /**
     * The Consul name of an encoded key: {@link KeyEncoding}'s {@code %} written as {@code ~}, which that encoding
     * never emits. Consul (1.22 and later) rejects a KV key whose percent-decoded form contains a space or
     * {@code ..}, so an encoded key such as {@code a%20b} cannot be a Consul key as it is.
     */
    static String consulName(String encoded) {
        return encoded.replace('%', '~');
    }

    /** The inverse of {@link #consulName}. */
    static String encodedName(String consulName) {
        return consulName.replace('~', '%');
    }

    /** The key prefix. */
    String prefix() {
        return prefix;
    }

    /** The Consul key under which a container's entries live, ending with {@code /}. */
    String containerPrefix(String container) {
        return prefix + "/" + container + "/";
    }

    /** The Consul key of a Hybris key. */
    String consulKey(MetadataKey key) {
        return containerPrefix(key.container()) + consulName(KeyEncoding.encode(key.key()));
    }

    /** Whether a name under a container is a Hybris key (someone else's entry is skipped, and logged). */
    boolean isHybrisKey(String base, String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("%")) {
            LOG.warn("{}: skipping Consul key {}{}: not a Hybris key (nested path or '%')", description, base, name);
            return false;
        }
        try {
            KeyEncoding.decode(encodedName(name));
            return true;
        } catch (IllegalArgumentException foreign) {
            LOG.warn("{}: skipping Consul key {}{}: not a Hybris key ({})", description, base, name,
                    foreign.getMessage());
            return false;
        }
    }

    /** An entry's value and version. */
    static VersionedValue versioned(Value v) {
        return new VersionedValue(v.getValueAsBytes().orElse(EMPTY), new MetadataVersion(v.getModifyIndex()));
    }

    /** An entry under container key {@code base} as a listing entry. */
    static MetadataEntry entry(String base, Value v) {
        return new MetadataEntry(KeyEncoding.decode(encodedName(v.getKey().substring(base.length()))),
                v.getValueAsBytes().orElse(EMPTY), new MetadataVersion(v.getModifyIndex()));
    }

    /** The ModifyIndex to check-and-set against: 0 creates; a value no entry can have is a conflict. */
    static long casIndex(MetadataKey key, MetadataVersion v) throws VersionConflictException {
        if (v.isAbsent()) {
            return 0;
        }
        if (v.value() <= 0) {
            throw new VersionConflictException(key + ": version " + v + " is not a Consul ModifyIndex");
        }
        return v.value();
    }

    /** The read-only transaction {@code [{"KV":{"Verb":"get","Key":...}}, ...]} of the given Consul keys. */
    static ArrayNode getOperations(List<String> consulKeys) {
        ArrayNode ops = Jackson.MAPPER.createArrayNode();
        for (String key : consulKeys) {
            ops.addObject().putObject("KV").put("Verb", "get").put("Key", key);
        }
        return ops;
    }

    /**
     * The transaction of check-and-set operations {@code {"KV":{"Verb":"cas","Key":...,"Value":<base64>,
     * "Index":...}}}, index 0 to create; Jackson writes the bytes as base64.
     */
    ArrayNode casOperations(List<MetadataUpdate> updates) throws VersionConflictException {
        ArrayNode ops = Jackson.MAPPER.createArrayNode();
        for (MetadataUpdate u : updates) {
            ObjectNode kv = ops.addObject().putObject("KV");
            kv.put("Verb", "cas").put("Key", consulKey(u.key())).put("Value", u.value())
                    .put("Index", casIndex(u.key(), u.expectedVersion()));
        }
        return ops;
    }
}
