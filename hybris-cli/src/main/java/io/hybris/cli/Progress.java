/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress line on standard error, redrawn in place a few times a second: for a transfer, bytes done of the
 * total, a bar, the rate and the time left; for work of unknown extent (a sweep, a rewrap), what is running and
 * for how long; for work counted in items (a sweep's objects, a rewrap's entries), items done of the total, a bar,
 * the rate and the time left. {@link #none()} draws nothing (standard error or output is not a terminal, or
 * {@code --no-progress}). Closing draws the final state and ends the line; a process stopped meanwhile (Ctrl-C,
 * SIGTERM) ends it with "stopped", so the shell's prompt does not land on the progress line.
 */
class Progress implements AutoCloseable {
    private static final long REDRAW_MILLIS = 200;

    private final PrintStream err;
    private final String label;
    private volatile long total;
    private final String unit;
    private final AtomicLong done = new AtomicLong();
    private final long startNanos = System.nanoTime();
    private final ScheduledExecutorService redraw;
    /** Ends the line when the process is stopped while it is drawn; null when nothing is drawn. */
    private final Thread stopHook;
    private int lastWidth;
    /** Whether the line has ended (closed or stopped): nothing more is drawn. Guarded by this. */
    private boolean ended;

    private Progress(PrintStream err, String label, long total) {
        this(err, label, total, null);
    }

    private Progress(PrintStream err, String label, long total, String unit) {
        this.err = err;
        this.label = label;
        this.total = total;
        this.unit = unit;
        if (err == null) {
            this.redraw = null;
            this.stopHook = null;
            return;
        }
        this.redraw = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hybris-cli-progress");
            t.setDaemon(true);
            return t;
        });
        this.stopHook = new Thread(this::stopped, "hybris-cli-progress-stop");
        Runtime.getRuntime().addShutdownHook(stopHook);
        draw(false);
        redraw.scheduleAtFixedRate(() -> draw(false), REDRAW_MILLIS, REDRAW_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** A transfer of {@code total} bytes ({@code -1}: unknown) drawn on {@code err}. */
    static Progress transfer(PrintStream err, String label, long total) {
        return new Progress(err, label, total);
    }

    /** Work of unknown extent (no byte counts), drawn as elapsed time. */
    static Progress task(PrintStream err, String label) {
        return new Progress(err, label, -2);
    }

    /** Work counted in items ({@code unit}, e.g. "objects"), whose total is known once it starts (see {@link #set}). */
    static Progress items(PrintStream err, String label, String unit) {
        return new Progress(err, label, -1, unit);
    }

    /** {@code done} items of {@code total} are finished. */
    void set(long done, long total) {
        this.total = total;
        this.done.set(done);
    }

    /** Draws nothing. */
    static Progress none() {
        return new Progress(null, "", -1);
    }

    /** Whether anything is drawn. */
    boolean visible() {
        return err != null;
    }

    /** Counts {@code n} more bytes done. */
    void add(long n) {
        done.addAndGet(n);
    }

    long done() {
        return done.get();
    }

    private synchronized void draw(boolean last) {
        if (err == null || ended) {
            return;
        }
        ended = last;
        paint(line(System.nanoTime() - startNanos, last), last ? "\n" : "");
    }

    private void paint(String line, String end) {
        int pad = Math.max(0, lastWidth - line.length());
        err.print("\r" + line + " ".repeat(pad) + end);
        err.flush();
        lastWidth = line.length();
    }

    String line(long elapsedNanos, boolean last) {
        Duration elapsed = Duration.ofNanos(elapsedNanos);
        if (total == -2) {
            return label + " ... " + Sizes.duration(elapsed) + (last ? " done" : "");
        }
        long n = done.get();
        long total = this.total;
        double seconds = Math.max(elapsedNanos / 1e9, 1e-3);
        double rate = n / seconds;
        StringBuilder s = new StringBuilder(label).append(' ');
        if (total >= 0) {
            double fraction = total == 0 ? 1.0 : Math.min(1.0, (double) n / total);
            int barWidth = Math.max(10, Math.min(30, Terminal.width() - 60));
            int filled = (int) Math.round(fraction * barWidth);
            s.append(String.format(Locale.ROOT, "%3d%% [", (int) Math.floor(fraction * 100)))
                    .append("#".repeat(filled)).append(" ".repeat(barWidth - filled)).append("] ")
                    .append(amount(n)).append(" / ").append(amount(total));
        } else {
            s.append(amount(n));
        }
        s.append("  ").append(unit == null ? Sizes.rate(rate)
                : String.format(Locale.ROOT, "%.0f %s/s", rate, unit));
        if (last) {
            s.append("  in ").append(Sizes.duration(elapsed));
        } else if (total > 0 && n > 0) {
            long leftSeconds = (long) Math.ceil((total - n) / Math.max(rate, 1.0));
            s.append("  ETA ").append(Sizes.duration(Duration.ofSeconds(leftSeconds)));
        } else {
            s.append("  ETA --");
        }
        return s.toString();
    }

    private String amount(long n) {
        return unit == null ? Sizes.bytes(n) : String.format(Locale.ROOT, "%,d %s", n, unit);
    }

    /** The process is stopping with the line drawn: ends it, saying so. */
    private synchronized void stopped() {
        if (!ended) {
            ended = true;
            paint(line(System.nanoTime() - startNanos, true) + " stopped", "\n");
        }
    }

    @Override
    public void close() {
        if (redraw != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(stopHook);
            } catch (IllegalStateException shuttingDown) {
                // the process is stopping: the hook or this close ends the line, whichever comes first
            }
            redraw.shutdownNow();
            try {
                redraw.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            draw(true);
        }
    }
}
