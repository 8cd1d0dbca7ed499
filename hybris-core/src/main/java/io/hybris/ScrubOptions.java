/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a scrub ({@link Hybris#scrub}) checks and does (docs/scrub.md). Immutable; the default is a listing scrub of
 * every container that repairs nothing.
 */
public final class ScrubOptions {
    /**
     * The lowest request rate other than 0 (unlimited): a lower one would wait hours or days between requests (or,
     * tiny enough, overflow into no pacing at all).
     */
    public static final double MIN_REQUESTS_PER_SECOND = 0.01;
    /** The lowest byte rate other than 0 (unlimited): 1 KiB/s. */
    public static final long MIN_BYTES_PER_SECOND = 1024;

    private final List<String> containers;
    private final String prefix;
    private final boolean deep;
    private final boolean repair;
    private final double requestsPerSecond;
    private final long bytesPerSecond;
    private final Path stateFile;
    private final ScrubListener listener;

    private ScrubOptions(List<String> containers, String prefix, boolean deep, boolean repair, double requestsPerSecond,
                         long bytesPerSecond, Path stateFile, ScrubListener listener) {
        this.containers = List.copyOf(containers);
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.deep = deep;
        this.repair = repair;
        if (requestsPerSecond != 0 && !(requestsPerSecond >= MIN_REQUESTS_PER_SECOND
                && requestsPerSecond < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("requestsPerSecond must be 0 (unlimited) or a finite rate of at least "
                    + MIN_REQUESTS_PER_SECOND + " (one request per 100 s), not " + requestsPerSecond);
        }
        if (bytesPerSecond != 0 && bytesPerSecond < MIN_BYTES_PER_SECOND) {
            throw new IllegalArgumentException("bytesPerSecond must be 0 (unlimited) or at least "
                    + MIN_BYTES_PER_SECOND + " (1 KiB/s), not " + bytesPerSecond);
        }
        this.requestsPerSecond = requestsPerSecond;
        this.bytesPerSecond = bytesPerSecond;
        this.stateFile = stateFile;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** A listing scrub of every container, no repair. */
    public static ScrubOptions listing() {
        return new ScrubOptions(List.of(), "", false, false, 0, 0, null, ScrubListener.NONE);
    }

    /** Only these containers (none: every container). */
    public ScrubOptions containers(String... names) {
        return new ScrubOptions(List.of(names), prefix, deep, repair, requestsPerSecond, bytesPerSecond, stateFile,
                listener);
    }

    /** Only keys starting with {@code keyPrefix}. */
    public ScrubOptions prefix(String keyPrefix) {
        return new ScrubOptions(containers, keyPrefix, deep, repair, requestsPerSecond, bytesPerSecond, stateFile,
                listener);
    }

    /** Also download every copy and check its hash (finds silent corruption; costs a GET and egress per copy). */
    public ScrubOptions deep(boolean deep) {
        return new ScrubOptions(containers, prefix, deep, repair, requestsPerSecond, bytesPerSecond, stateFile,
                listener);
    }

    /** Rebuild missing and corrupt copies. */
    public ScrubOptions repair(boolean repair) {
        return new ScrubOptions(containers, prefix, deep, repair, requestsPerSecond, bytesPerSecond, stateFile,
                listener);
    }

    /**
     * At most this many cloud requests per second: 0 (unlimited) or at least {@link #MIN_REQUESTS_PER_SECOND}.
     *
     * @throws IllegalArgumentException for another value
     */
    public ScrubOptions requestsPerSecond(double limit) {
        return new ScrubOptions(containers, prefix, deep, repair, limit, bytesPerSecond, stateFile, listener);
    }

    /**
     * At most this many bytes per second read and written: 0 (unlimited) or at least {@link #MIN_BYTES_PER_SECOND}.
     *
     * @throws IllegalArgumentException for another value
     */
    public ScrubOptions bytesPerSecond(long limit) {
        return new ScrubOptions(containers, prefix, deep, repair, requestsPerSecond, limit, stateFile, listener);
    }

    /**
     * Keep the scrub's state in this file: a checkpoint after each page of keys (a scrub started again with the same
     * file resumes after the last completed page; one that finished starts over) and the listing digests of the
     * ranges last verified healthy (which a later scrub skips while their listings do not change). With each
     * checkpoint it keeps what the run found up to it, so a resumed run's report counts the stopped run's keys too,
     * and its {@link ScrubListener} hears again the keys the stopped run found not healthy (the first 1,000 per
     * container; the counts are exact beyond them): the stopped run's report was never returned.
     */
    public ScrubOptions stateFile(Path file) {
        return new ScrubOptions(containers, prefix, deep, repair, requestsPerSecond, bytesPerSecond,
                Objects.requireNonNull(file, "file"), listener);
    }

    /** Follow the scrub. */
    public ScrubOptions listener(ScrubListener listener) {
        return new ScrubOptions(containers, prefix, deep, repair, requestsPerSecond, bytesPerSecond, stateFile,
                listener);
    }

    /** The containers to scrub (empty: all). */
    public List<String> containers() {
        return containers;
    }

    /** The key prefix. */
    public String prefix() {
        return prefix;
    }

    /** Whether copies are downloaded and hash-checked. */
    public boolean deep() {
        return deep;
    }

    /** Whether missing and corrupt copies are rebuilt. */
    public boolean repair() {
        return repair;
    }

    /** The request rate limit (0: none). */
    public double requestsPerSecond() {
        return requestsPerSecond;
    }

    /** The byte rate limit (0: none). */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /** The state file, if any. */
    public Optional<Path> stateFile() {
        return Optional.ofNullable(stateFile);
    }

    /** The listener. */
    public ScrubListener listener() {
        return listener;
    }
}
