/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisException;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * A scrub's state file (docs/scrub.md): per container, the last key of the last completed page (the checkpoint a
 * resumed scrub starts after) and whether the container is done in this run; per container, cloud and key bucket, the
 * listing digest last verified healthy; the kind of run the checkpoints belong to. Saved atomically (a temporary file
 * renamed over the old one) after each page. Without a file the state lives in memory for one run. Not thread-safe:
 * one scrub uses it.
 */
final class ScrubState {
    private static final String RUN = "run";

    private final Path file;
    private final Properties p = new Properties();

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
        }
        p.remove("cursor." + container);
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

    /** The run finished: the next one starts over (the digests stay). */
    void runComplete() {
        p.stringPropertyNames().stream().filter(k -> k.startsWith("done.") || k.startsWith("cursor."))
                .forEach(p::remove);
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
