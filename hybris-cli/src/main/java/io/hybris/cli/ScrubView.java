/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.KeyHealth;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Runs a scrub or a migration with a progress line, and prints its report ({@code scrub} and {@code migrate}). */
final class ScrubView {
    /** Keys listed in the --json document at most (the rest are counted). */
    private static final int MAX_LISTED = 1000;

    private ScrubView() {
    }

    /**
     * Runs {@code run} with a progress line and a listener collecting the keys not healthy or with copies unchecked;
     * prints; the exit code.
     */
    static int run(Session session, String label, ScrubOptions options, Function<ScrubOptions, ScrubReport> run) {
        // a run resumed from --state reports what the stopped run had found up to its checkpoints too: its counts in
        // the report, its keys not healthy again to the listener (docs/scrub.md)
        List<KeyHealth> unhealthy = new ArrayList<>();
        ScrubReport r;
        try (Progress progress = session.items(label, "keys")) {
            r = run.apply(options.listener(new ScrubListener() {
                @Override
                public void key(KeyHealth health) {
                    boolean listed = health.status() != KeyHealth.Status.HEALTHY || !health.uncheckedOn().isEmpty();
                    if (listed && unhealthy.size() < MAX_LISTED) {
                        unhealthy.add(health);
                    }
                    if (health.status() == KeyHealth.Status.UNRECOVERABLE && !session.json()) {
                        session.err().println("hybris: " + health.container() + "/" + health.key() + " (version "
                                + health.version() + ") is unrecoverable: " + health.detail());
                    }
                }

                @Override
                public void progress(String container, ScrubReport report) {
                    progress.set(report.keysChecked() + report.keysSkipped(), -1);
                }
            }));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("keysChecked", r.keysChecked());
        doc.put("keysSkipped", r.keysSkipped());
        doc.put("healthy", r.healthy());
        doc.put("repaired", r.repaired());
        doc.put("degraded", r.degraded());
        doc.put("unrecoverable", r.unrecoverable());
        doc.put("superseded", r.superseded());
        doc.put("copiesMissing", r.copiesMissing());
        doc.put("copiesCorrupt", r.copiesCorrupt());
        doc.put("copiesRepaired", r.copiesRepaired());
        doc.put("bytesRead", r.bytesRead());
        doc.put("bytesWritten", r.bytesWritten());
        doc.put("complete", r.complete());
        doc.put("keys", unhealthy.stream().map(ScrubView::json).toList());
        session.emit(doc, () -> {
            for (KeyHealth h : unhealthy) {
                session.out().println(h.status().name().toLowerCase(java.util.Locale.ROOT) + " " + h.container() + "/"
                        + h.key() + (h.missingOn().isEmpty() ? "" : " missing on " + h.missingOn())
                        + (h.corruptOn().isEmpty() ? "" : " corrupt on " + h.corruptOn())
                        + (h.uncheckedOn().isEmpty() ? "" : " unchecked on " + h.uncheckedOn())
                        + (h.repairedOn().isEmpty() ? "" : " rebuilt on " + h.repairedOn())
                        + (h.detail().isEmpty() ? "" : ": " + h.detail()));
            }
            session.out().println(label + ": " + r.keysChecked() + " keys checked (" + r.keysSkipped()
                    + " skipped, unchanged since verified), " + r.healthy() + " healthy, " + r.repaired()
                    + " repaired, " + r.degraded() + " degraded, " + r.unrecoverable() + " unrecoverable; copies "
                    + r.copiesMissing() + " missing, " + r.copiesCorrupt() + " corrupt, " + r.copiesRepaired()
                    + " rebuilt" + (r.complete() ? "" : "; INCOMPLETE: a cloud could not be listed or did not answer, "
                    + "its copies are unchecked"));
        });
        if (r.unrecoverable() > 0) {
            return ExitCode.NOT_FOUND;
        }
        return r.degraded() > 0 || !r.complete() ? ExitCode.UNAVAILABLE : ExitCode.OK;
    }

    private static Map<String, Object> json(KeyHealth h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("container", h.container());
        m.put("key", h.key());
        m.put("version", h.version());
        m.put("status", h.status().name().toLowerCase(java.util.Locale.ROOT));
        m.put("missingOn", h.missingOn());
        m.put("corruptOn", h.corruptOn());
        m.put("uncheckedOn", h.uncheckedOn());
        m.put("repairedOn", h.repairedOn());
        m.put("detail", h.detail());
        return m;
    }
}
