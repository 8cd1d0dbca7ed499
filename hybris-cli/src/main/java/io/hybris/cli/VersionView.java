/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.VersionInfo;

import java.util.LinkedHashMap;
import java.util.Map;

/** How a version ({@link VersionInfo}) is shown: its JSON fields and its text lines. */
final class VersionView {
    private VersionView() {
    }

    /**
     * {@code {"container", "key", "version", "sequence", "clientId", "size", "chunks", "sha256", "clouds",
     * "metadata"}}.
     */
    static Map<String, Object> json(String container, String key, VersionInfo v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", container);
        m.put("key", key);
        m.putAll(fields(v));
        return m;
    }

    /** The version's own fields, without container and key. */
    static Map<String, Object> fields(VersionInfo v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", v.version());
        m.put("sequence", v.sequence());
        m.put("clientId", v.clientId());
        m.put("size", v.size());
        m.put("chunks", v.chunks());
        m.put("sha256", v.sha256Hex());
        m.put("clouds", v.clouds());
        m.put("metadata", v.metadata());
        return m;
    }

    /** The multi-line description {@code stat} prints. */
    static String text(String container, String key, VersionInfo v) {
        StringBuilder s = new StringBuilder(container).append('/').append(key).append('\n');
        row(s, "version", v.version());
        row(s, "timestamp", "sequence " + v.sequence() + ", client " + v.clientId());
        row(s, "size", v.size() + " bytes" + (v.size() >= 1024 ? " (" + Sizes.bytes(v.size()) + ")" : ""));
        row(s, "chunks", v.chunks() == 0 ? "stored whole" : v.chunks() + " (the SHA-256 below is the manifest's)");
        row(s, "sha256", v.sha256Hex());
        row(s, "clouds", String.join(", ", v.clouds()));
        if (!v.metadata().isEmpty()) {
            StringBuilder meta = new StringBuilder();
            v.metadata().forEach((k, val) -> meta.append(meta.length() == 0 ? "" : ", ").append(k).append('=')
                    .append(val));
            row(s, "metadata", meta.toString());
        }
        return s.toString();
    }

    private static void row(StringBuilder s, String name, String value) {
        s.append("  ").append(String.format("%-10s", name)).append(value).append('\n');
    }

    /** One line: {@code version V, N bytes on clouds a, b}. */
    static String summary(VersionInfo v) {
        return "version " + v.version() + ", " + v.size() + " bytes on " + String.join(", ", v.clouds());
    }
}
