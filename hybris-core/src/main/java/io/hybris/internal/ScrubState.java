/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisException;
import io.hybris.KeyHealth;
import io.hybris.spi.support.LeftoverFiles;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A scrub's state file (docs/scrub.md): per container, the last key of the last completed page (the checkpoint a
 * resumed scrub starts after), whether the container is done in this run, and what the run found up to there (the
 * report's counts for the container's keys, and its first {@value #MAX_LISTED} keys not healthy, which a resumed run
 * reports again: the stopped run's report was never returned); per container, cloud and key bucket, the
 * listing digest last verified healthy; the kind of run the checkpoints belong to. Saved atomically (a temporary file
 * renamed over the old one) after each page. Without a file the state lives in memory for one run. Not thread-safe:
 * one scrub uses it.
 */
final class ScrubState {
    private static final String RUN = "run";
    /** Keys not healthy kept per container for a resumed run to report again; the counts are exact beyond them. */
    static final int MAX_LISTED = 1000;


    private final Path file;
    private final Properties p = new Properties();
    /** Per container, how many keys {@link #listed(String, KeyHealth)} has kept. */
    private final Map<String, Integer> listedCount = new HashMap<>();

    private ScrubState(Path file) {
        this.file = file;
    }

    /**
     * The state in {@code file} (empty if it does not exist), or an in-memory state when {@code file} is null, for
     * the run {@code run} describes (what it checks and does: scrub or migration, prefix, deep, repair). The
     * checkpoints of a stopped run of another kind are dropped: the keys before them were not checked, repaired or
     * moved as this run would, so resuming after them would skip those keys and still report the run complete.
     */
    static ScrubState load(Path file, String run) {
        ScrubState s = new ScrubState(file);
        if (file != null) {
            // a run killed while it replaced the file left its next version beside it (once per run, not per page)
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && Files.isDirectory(dir)) {
                LeftoverFiles.deleteAbandoned(dir, file.getFileName().toString(), ".tmp");
            }
        }
        if (file != null && Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file)) {
                s.p.load(r);
            } catch (IOException | IllegalArgumentException e) {
                throw new HybrisException("cannot read the scrub state file " + file + ": " + e.getMessage()
                        + "; delete it to start over", e);
            }
        }
        if (!run.equals(s.p.getProperty(RUN))) {
            s.runComplete();
        }
        s.p.setProperty(RUN, run);
        return s;
    }

    /** The last key done in {@code container} by an unfinished run, if any. */
    Optional<String> cursor(String container) {
        return Optional.ofNullable(p.getProperty("cursor." + container));
    }

    void cursor(String container, String lastKey) {
        p.setProperty("cursor." + container, lastKey);
    }

    boolean containerDone(String container) {
        return "true".equals(p.getProperty("done." + container));
    }

    void containerDone(String container, boolean done) {
        if (done) {
            p.setProperty("done." + container, "true");
        } else {
            p.remove("done." + container);
            forgetFindings(container); // checked again from its start by the next run
        }
        p.remove("cursor." + container);
    }

    /**
     * The counts (as {@link ScrubTotals#counts()}) of {@code container}'s keys up to its checkpoint, found by this run
     * and the stopped runs it resumes; zeros when none are recorded.
     */
    long[] found(String container) {
        String v = p.getProperty("found." + container);
        long[] n = v == null ? null : Arrays.stream(v.split(",")).mapToLong(Long::parseLong).toArray();
        return n == null || n.length != ScrubTotals.FIELDS ? new long[ScrubTotals.FIELDS] : n;
    }

    void found(String container, long[] counts) {
        p.setProperty("found." + container, String.join(",", Arrays.stream(counts).mapToObj(Long::toString).toList()));
    }

    /** The keys not healthy (or with copies unchecked) {@link #listed(String, KeyHealth) kept} for {@code container}. */
    List<KeyHealth> listed(String container) {
        List<KeyHealth> keys = new ArrayList<>();
        for (int i = 0; p.getProperty(listedName(container, i) + "key") != null; i++) {
            String k = listedName(container, i);
            keys.add(new KeyHealth(container, p.getProperty(k + "key"), p.getProperty(k + "version", ""),
                    KeyHealth.Status.valueOf(p.getProperty(k + "status", "DEGRADED")), names(k + "missingOn"),
                    names(k + "corruptOn"), names(k + "uncheckedOn"), names(k + "repairedOn"),
                    p.getProperty(k + "detail", "")));
        }
        return keys;
    }

    /** Keeps {@code h}, a key of {@code container} not healthy, unless {@value #MAX_LISTED} are kept already. */
    void listed(String container, KeyHealth h) {
        int i = listedCount.computeIfAbsent(container, c -> listed(c).size());
        if (i >= MAX_LISTED) {
            return;
        }
        String k = listedName(container, i);
        p.setProperty(k + "key", h.key());
        p.setProperty(k + "version", h.version());
        p.setProperty(k + "status", h.status().name());
        p.setProperty(k + "missingOn", String.join(",", h.missingOn()));
        p.setProperty(k + "corruptOn", String.join(",", h.corruptOn()));
        p.setProperty(k + "uncheckedOn", String.join(",", h.uncheckedOn()));
        p.setProperty(k + "repairedOn", String.join(",", h.repairedOn()));
        p.setProperty(k + "detail", h.detail());
        listedCount.put(container, i + 1);
    }

    /** Drops what the runs found in {@code container} (it is checked from its start). */
    void forgetFindings(String container) {
        p.remove("found." + container);
        String listed = "listed." + container + ".";
        p.stringPropertyNames().stream().filter(k -> k.startsWith(listed)).forEach(p::remove);
        listedCount.remove(container);
    }

    private static String listedName(String container, int i) {
        return "listed." + container + "." + i + ".";
    }

    private List<String> names(String property) {
        String v = p.getProperty(property, "");
        return v.isEmpty() ? List.of() : List.of(v.split(","));
    }

    /** The digest of {@code bucket} of {@code container} on {@code cloud} last verified healthy, or null. */
    Long verified(String container, String cloud, int bucket) {
        String v = p.getProperty("digest." + container + "." + cloud + "." + bucket);
        return v == null ? null : Long.parseUnsignedLong(v, 16);
    }

    void verified(String container, String cloud, int bucket, long digest) {
        p.setProperty("digest." + container + "." + cloud + "." + bucket, Long.toUnsignedString(digest, 16));
    }

    void forget(String container, String cloud, int bucket) {
        p.remove("digest." + container + "." + cloud + "." + bucket);
    }

    /** The run finished: the next one starts over, and so does what it found (the digests stay). */
    void runComplete() {
        p.stringPropertyNames().stream().filter(k -> k.startsWith("done.") || k.startsWith("cursor.")
                || k.startsWith("found.") || k.startsWith("listed.")).forEach(p::remove);
        listedCount.clear();
    }

    void save() {
        if (file == null) {
            return;
        }
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp)) {
                p.store(w, "Hybris scrub state: checkpoint and verified listing digests");
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new HybrisException("cannot write the scrub state file " + file + ": " + e.getMessage(), e);
        }
    }
}
