/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.Hybris;
import io.hybris.rmds.zookeeper.embedded.DataDirectoryInUseException;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.Map;

/**
 * What one run of a command works with: the global options, the standard streams, the client (opened on first
 * use from the resolved configuration, closed when the run ends), progress and output in text or JSON.
 */
final class Session implements AutoCloseable {
    /** Transfers smaller than this draw no progress. */
    static final long PROGRESS_MIN_BYTES = 1L << 20;

    private final HybrisCommand options;
    private final java.io.InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;
    private Hybris hybris;
    private ConfigResolver.Resolved resolved;
    private boolean longLived;
    private String description;

    Session(HybrisCommand options, java.io.InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
        this.options = options;
        this.in = in;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    java.io.InputStream in() {
        return in;
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    boolean json() {
        return options.json;
    }

    /** The client, opened on first use. */
    Hybris hybris() {
        return hybris(null);
    }

    /** The client, opened on first use with {@code listener} (null for none) beside the configuration's. */
    Hybris hybris(io.hybris.HybrisListener listener) {
        if (hybris == null) {
            io.hybris.HybrisConfig config = config();
            try {
                hybris = listener == null ? Hybris.open(config) : Hybris.open(config, listener);
            } catch (io.hybris.MetadataStoreException e) {
                Path dir = resolved.dataDir();
                if (dir != null && inUse(e)) {
                    // not a store to check the reachability of, nor a directory to give each its own: another run
                    throw new CliException(ExitCode.UNAVAILABLE, "the data directory " + dir + " is in use by another"
                            + " hybris process (one at a time may use it: wait for it to end, or stop the serve or"
                            + " gateway holding it; or pass another --data-dir)", e);
                }
                throw e;
            }
        }
        return hybris;
    }

    /**
     * Marks this session's command as long-lived ({@code serve}, {@code gateway}): its client keeps the configured
     * start-up probe; a one-shot command's client does not probe at open unless the configuration asks.
     */
    void longLived() {
        this.longLived = true;
    }

    /** Whether {@code e} says another embedded ZooKeeper holds the data directory. */
    private static boolean inUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DataDirectoryInUseException) {
                return true;
            }
        }
        return false;
    }

    /** The configuration, resolved (and its data directory created) on first use; opens nothing. */
    io.hybris.HybrisConfig config() {
        if (resolved == null) {
            ConfigResolver.Resolved r = new ConfigResolver(env).resolve(options.config, options.dataDir, !longLived);
            Path dir = r.dataDir();
            if (dir != null) {
                try {
                    Files.createDirectories(dir);
                } catch (IOException e) {
                    throw new CliException(ExitCode.CONFIG, "cannot create the data directory " + dir + ": "
                            + e.getMessage() + "; pass a writable directory with --data-dir DIR", e);
                }
            }
            description = r.description();
            resolved = r;
        }
        return resolved.config();
    }

    /** Where the configuration came from (after {@link #hybris()}). */
    String description() {
        return description;
    }

    /**
     * Progress for a transfer of {@code total} bytes ({@code -1}: unknown). Drawn when standard error is a
     * terminal and so is standard output (or, when standard output carries the value, when it is not), unless
     * {@code --no-progress}; never for known sizes below {@link #PROGRESS_MIN_BYTES}.
     */
    Progress transfer(String label, long total, boolean valueOnStdout) {
        if (!progressAllowed(valueOnStdout) || (total >= 0 && total < PROGRESS_MIN_BYTES)) {
            return Progress.none();
        }
        return Progress.transfer(err, label, total);
    }

    /** Progress of work counted in {@code unit}s (see {@link Progress#items}). */
    Progress items(String label, String unit) {
        return progressAllowed(false) ? Progress.items(err, label, unit) : Progress.none();
    }

    /** Progress of work of unknown extent: elapsed time. */
    Progress task(String label) {
        return progressAllowed(false) ? Progress.task(err, label) : Progress.none();
    }

    /** Whether progress may be drawn (see {@link #transfer}). */
    boolean progressAllowed(boolean valueOnStdout) {
        if (options.noProgress || "never".equals(env.get("HYBRIS_PROGRESS"))) {
            return false;
        }
        if ("always".equals(env.get("HYBRIS_PROGRESS"))) {
            return true;
        }
        return Terminal.stderrIsTerminal() && (valueOnStdout != Terminal.stdoutIsTerminal());
    }

    /** Prints {@code document} as JSON with {@code --json}, else runs {@code text}. */
    void emit(Map<String, ?> document, Runnable text) {
        if (options.json) {
            out.println(Json.write(document));
        } else {
            text.run();
        }
        out.flush();
    }

    @Override
    public void close() {
        if (hybris != null) {
            hybris.close();
            hybris = null;
        }
    }
}
