/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.KeyHealth;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a {@code scrub} or {@code migrate} with {@code --state FILE} found up to its checkpoints, kept beside the
 * state file ({@code FILE.findings}, replaced after each page), so that a run resumed after a stop reports it too:
 * the resumed run checks only the keys after the checkpoints, and the stopped run printed nothing (the report comes
 * at the end). Without it a resumed run reported the keys the stopped run had found degraded as if they were not
 * there, and exited 0. Per container: the report's counts for its keys up to the checkpoint, and its keys listed.
 * Deleted once a run completes (the state file then starts the next run over). Used by one thread.
 */
final class ScrubFindings {
    private static final int FIELDS = 12;

    private final Path file;
    private final String kind;
    private final int maxListed;
    /** Per container: the counts (as {@link #fields}) and the keys listed, of this run and the resumed one. */
    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final Map<String, List<KeyHealth>> keys = new LinkedHashMap<>();
    private final long[] prior = new long[FIELDS];
    private final List<KeyHealth> priorKeys = new ArrayList<>();
    private long[] base = new long[FIELDS];
    private long[] last = new long[FIELDS];
    private String container;
    private long[] containerStart = new long[FIELDS];

    private ScrubFindings(Path file, String kind, int maxListed) {
        this.file = file;
        this.kind = kind;
        this.maxListed = maxListed;
    }

    /**
     * The findings of a stopped run of the same kind that {@code o}'s state file resumes (none without a state file,
     * or when its checkpoints are of another run or gone), for the run {@code label} names.
     */
    static ScrubFindings load(String label, ScrubOptions o, int maxListed) {
        Path state = o.stateFile().orElse(null);
        String kind = label + " prefix=" + o.prefix() + " deep=" + o.deep() + " repair=" + o.repair();
        ScrubFindings f = new ScrubFindings(state == null ? null : sibling(state), kind, maxListed);
        if (state == null || !Files.exists(f.file) || !Files.exists(state)) {
            return f;
        }
        Properties saved = read(f.file);
        Properties checkpoints = read(state);
        if (!kind.equals(saved.getProperty("run"))) {
            return f;
        }
        for (String name : saved.stringPropertyNames()) {
            if (!name.startsWith("counts.")) {
                continue;
            }
            String c = name.substring("counts.".length());
            boolean resumed = "true".equals(checkpoints.getProperty("done." + c))
                    || checkpoints.getProperty("cursor." + c) != null;
            if (!resumed || !(o.containers().isEmpty() || o.containers().contains(c))) {
                continue; // checked again from its start by this run, or not part of it
            }
            long[] n = Arrays.stream(saved.getProperty(name).split(",")).mapToLong(Long::parseLong).toArray();
            if (n.length != FIELDS) {
                continue;
            }
            f.counts.put(c, n);
            add(f.prior, n, 1);
            List<KeyHealth> listed = new ArrayList<>();
            for (int i = 0; saved.getProperty("key." + c + "." + i + ".key") != null; i++) {
                listed.add(key(saved, c, "key." + c + "." + i + "."));
            }
            f.keys.put(c, listed);
            f.priorKeys.addAll(listed);
        }
        return f;
    }

    /** {@code report} of this run with what the stopped run had found added. */
    ScrubReport withPrior(ScrubReport report) {
        long[] n = fields(report);
        add(n, prior, 1);
        return new ScrubReport(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9], n[10], n[11],
                report.complete());
    }

    /** The keys the stopped run had listed. */
    List<KeyHealth> priorKeys() {
        return priorKeys;
    }

    /** A key this run listed. */
    void key(KeyHealth h) {
        List<KeyHealth> listed = keys.computeIfAbsent(h.container(), c -> new ArrayList<>());
        if (listed.size() < maxListed) {
            listed.add(h);
        }
    }

    /** A page of {@code c} is done (its checkpoint saved); {@code total} is this run's report so far. */
    void page(String c, ScrubReport total) {
        long[] now = fields(total);
        if (!c.equals(container)) {
            container = c;
            base = last;
            long[] before = counts.get(c);
            containerStart = before == null ? new long[FIELDS] : before;
        }
        long[] n = containerStart.clone();
        add(n, now, 1);
        add(n, base, -1);
        counts.put(c, n);
        last = now;
        save();
    }

    /** The run completed: the next one starts over, and so do its findings. */
    void completed() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new CliException(ExitCode.OTHER, "cannot delete " + file + ": " + e.getMessage(), e);
            }
        }
    }

    private void save() {
        if (file == null) {
            return;
        }
        Properties p = new Properties();
        p.setProperty("run", kind);
        counts.forEach((c, n) -> p.setProperty("counts." + c, String.join(",",
                Arrays.stream(n).mapToObj(Long::toString).toList())));
        keys.forEach((c, listed) -> {
            for (int i = 0; i < listed.size(); i++) {
                KeyHealth h = listed.get(i);
                String k = "key." + c + "." + i + ".";
                p.setProperty(k + "key", h.key());
                p.setProperty(k + "version", h.version());
                p.setProperty(k + "status", h.status().name());
                p.setProperty(k + "missingOn", String.join(",", h.missingOn()));
                p.setProperty(k + "corruptOn", String.join(",", h.corruptOn()));
                p.setProperty(k + "uncheckedOn", String.join(",", h.uncheckedOn()));
                p.setProperty(k + "repairedOn", String.join(",", h.repairedOn()));
                p.setProperty(k + "detail", h.detail());
            }
        });
        try {
            Path dir = file.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp)) {
                p.store(w, "hybris " + kind + ": what the run found up to its checkpoints");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliException(ExitCode.OTHER, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static Path sibling(Path state) {
        return state.resolveSibling(state.getFileName() + ".findings");
    }

    private static Properties read(Path f) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            // unreadable: as if absent (the state file itself is checked by the scrub)
        }
        return p;
    }

    private static KeyHealth key(Properties p, String c, String k) {
        return new KeyHealth(c, p.getProperty(k + "key"), p.getProperty(k + "version", ""),
                KeyHealth.Status.valueOf(p.getProperty(k + "status", "DEGRADED")), list(p, k + "missingOn"),
                list(p, k + "corruptOn"), list(p, k + "uncheckedOn"), list(p, k + "repairedOn"),
                p.getProperty(k + "detail", ""));
    }

    private static List<String> list(Properties p, String name) {
        String v = p.getProperty(name, "");
        return v.isEmpty() ? List.of() : List.of(v.split(","));
    }

    private static long[] fields(ScrubReport r) {
        return new long[] {r.keysChecked(), r.keysSkipped(), r.healthy(), r.repaired(), r.degraded(),
            r.unrecoverable(), r.superseded(), r.copiesMissing(), r.copiesCorrupt(), r.copiesRepaired(),
            r.bytesRead(), r.bytesWritten()};
    }

    private static void add(long[] to, long[] n, int sign) {
        for (int i = 0; i < FIELDS; i++) {
            to[i] += sign * n[i];
        }
    }
}
