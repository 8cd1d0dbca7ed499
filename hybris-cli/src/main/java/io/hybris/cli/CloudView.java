/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.CloudStatus;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How {@link CloudStatus} snapshots are shown: JSON fields and a table. */
final class CloudView {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private CloudView() {
    }

    static Map<String, Object> json(CloudStatus s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.cloudId());
        m.put("rank", s.rank());
        m.put("readLatencyMs", s.readLatency().map(Sizes::millisValue));
        m.put("writeLatencyMs", s.writeLatency().map(Sizes::millisValue));
        m.put("healthy", !s.failing() && s.quarantined().isEmpty());
        m.put("quarantinedForSeconds", s.quarantined().map(Duration::toSeconds));
        m.put("errors", s.errors());
        m.put("lastError", s.lastError());
        m.put("lastErrorAt", s.lastErrorAt().map(t -> t.truncatedTo(ChronoUnit.MILLIS).toString()));
        return m;
    }

    static Table table(List<CloudStatus> status) {
        Table t = new Table("RANK", "CLOUD", "READ", "WRITE", "HEALTH", "ERRORS", "LAST ERROR");
        for (CloudStatus s : status) {
            t.row(s.rank(), s.cloudId(), latency(s.readLatency()), latency(s.writeLatency()),
                    health(s), s.errors(), lastError(s));
        }
        return t;
    }

    private static String health(CloudStatus s) {
        return s.quarantined().map(d -> "QUARANTINED " + d.toSeconds() + "s").orElse(s.failing() ? "FAILING" : "ok");
    }

    private static String latency(Optional<Duration> d) {
        return d.map(Sizes::millis).orElse("-");
    }

    private static String lastError(CloudStatus s) {
        if (s.lastError().isEmpty()) {
            return "-";
        }
        Instant at = s.lastErrorAt().orElse(null);
        return (at == null ? "" : TIME.format(at) + "Z ") + s.lastError().get();
    }
}
