/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A test's main class run in a JVM of its own, on this JVM's class path: its standard output is collected line by
 * line (to await a line), its standard error goes to a log file (shown when something fails). {@link #close()}
 * SIGKILLs it if it still runs, so a test that uses it in try-with-resources leaks no process.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.reader = new Thread(this::collect, "child-jvm-" + process.pid() + "-stdout");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * Starts {@code mainClass} with {@code jvmOptions} (e.g. {@code -Xmx256m}) and {@code args}; its standard error
     * goes to {@code log}.
     */
    static ChildJvm start(Class<?> mainClass, List<String> jvmOptions, List<String> args, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            return new ChildJvm(new ProcessBuilder(command).redirectError(log.toFile()).start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM: " + command, e);
        }
    }

    private void collect() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process died: its output ends here
        } finally {
            synchronized (lines) {
                lines.add(null); // end of output
                lines.notifyAll();
            }
        }
    }

    /**
     * Waits until the child prints a line matching {@code match} and returns it; fails if the child's output ends
     * first (it exited or died) or {@code timeout} passes.
     */
    String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            for (int seen = 0; ; ) {
                while (seen < lines.size()) {
                    String line = lines.get(seen++);
                    if (line == null) {
                        throw new AssertionError("the child JVM's output ended (exit code "
                                + exitCodeOrNull() + ") before the awaited line; output:\n" + output() + describeLog());
                    }
                    if (match.test(line)) {
                        return line;
                    }
                }
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("the child JVM printed no awaited line within " + timeout + "; output:\n"
                            + output() + describeLog());
                }
                TimeUnit.NANOSECONDS.timedWait(lines, left);
            }
        }
    }

    /** Waits for the child to exit by itself and returns its exit code; fails after {@code timeout}. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("the child JVM did not exit within " + timeout + "; output:\n" + output()
                    + describeLog());
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    /** Kills the child with SIGKILL (on Linux) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the child JVM " + process.pid() + " survived SIGKILL for 30 s");
        }
    }

    /** The exit code of the child, which must have ended (128 + n when killed by signal n, on Linux). */
    int exitValue() {
        return process.exitValue();
    }

    /** Whether the child is still running. */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Everything the child printed so far on standard output. */
    String output() {
        synchronized (lines) {
            return String.join("\n", lines.stream().filter(l -> l != null).toList());
        }
    }

    /** The child's standard error (its log) so far, for failure messages. */
    String describeLog() {
        try {
            List<String> all = Files.exists(log) ? Files.readAllLines(log) : List.of();
            List<String> tail = all.subList(Math.max(0, all.size() - 60), all.size());
            return "\nchild log " + log + " ends with:\n" + String.join("\n", tail);
        } catch (IOException e) {
            return "\n(child log " + log + " unreadable: " + e + ")";
        }
    }

    private Integer exitCodeOrNull() {
        return process.isAlive() ? null : process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
