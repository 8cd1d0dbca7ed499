/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The parent's side of one {@link ChildWriter} JVM: starts it, turns its event lines into the history (a call
 * invoked but never answered when the JVM died is an unknown-outcome write), and kills it with SIGKILL.
 */
final class ChildClient {
    private static final Logger LOG = LoggerFactory.getLogger(ChildClient.class);
    /** Longest wait for a child to open its client and report its start. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(45);

    private record Pending(String kind, long invoke, List<String> keys, List<String> ids) {
    }

    private final Process process;
    private final int processId;
    private final Recorder recorder;
    private final Thread reader;
    private final Map<Long, Pending> pending = new LinkedHashMap<>();
    private BufferedReader lines;

    private ChildClient(Process process, int processId, Recorder recorder) {
        this.process = process;
        this.processId = processId;
        this.recorder = recorder;
        this.reader = new Thread(this::read, "child-" + processId + "-reader");
        this.reader.setDaemon(true);
    }

    /** Starts a child JVM writing {@code keys} through a client configured by {@code properties}. */
    static ChildClient start(Map<String, String> properties, List<String> keys, String idPrefix, long seed,
                             int processId, Recorder recorder, Path workDir) {
        try {
            Files.createDirectories(workDir);
            Path file = workDir.resolve("child-" + processId + ".properties");
            Properties p = new Properties();
            p.putAll(properties);
            try (var out = Files.newBufferedWriter(file)) {
                p.store(out, "campaign child client " + processId);
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp",
                    System.getProperty("java.class.path"), ChildWriter.class.getName(), file.toString(),
                    String.join(",", keys), idPrefix, Long.toString(seed)));
            long before = System.nanoTime();
            Process process = new ProcessBuilder(command)
                    .redirectError(workDir.resolve("child-" + processId + ".log").toFile()).start();
            ChildClient child = new ChildClient(process, processId, recorder);
            child.checkClock(before, workDir.resolve("child-" + processId + ".log"));
            child.reader.start();
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a campaign child JVM", e);
        }
    }

    /**
     * Reads the start line — waiting at most {@link #START_TIMEOUT}: a child whose client cannot open (a cloud
     * answering only after long timeouts) is killed — and checks the child's nanoTime is this JVM's clock (else
     * histories would lie).
     */
    private void checkClock(long before, Path log) throws IOException {
        lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        CompletableFuture<String> started = CompletableFuture.supplyAsync(() -> {
            try {
                return lines.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String first;
        try {
            first = started.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly(); // ends the read above too
            throw new IllegalStateException("child JVM " + processId + " did not start within " + START_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while child JVM " + processId + " started", e);
        } catch (ExecutionException e) {
            first = null;
        }
        long after = System.nanoTime();
        if (first == null || !first.startsWith("T ")) {
            process.destroyForcibly();
            List<String> tail = Files.exists(log) ? Files.readAllLines(log) : List.of();
            throw new IllegalStateException("child JVM " + processId + " did not start; its log ends with:\n"
                    + String.join("\n", tail.stream().filter(l -> !l.startsWith("\tat ")).limit(30).toList()));
        }
        long childNow = Long.parseLong(first.substring(2));
        if (childNow < before || childNow > after) {
            process.destroyForcibly();
            throw new IllegalStateException("child JVM " + processId + " does not share this JVM's System.nanoTime"
                    + " clock; histories from it cannot be checked");
        }
    }

    private void read() {
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                handle(line.split(" "));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("child {} output ended: {}", processId, e.toString());
        }
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (pending) {
            pending.values().forEach(p -> recorder.writeLost(p.kind, processId, p.keys, p.ids, p.invoke));
            pending.clear();
        }
    }

    private void handle(String[] f) {
        synchronized (pending) {
            switch (f[0]) {
                case "I" -> {
                    List<String> keys = new ArrayList<>();
                    List<String> ids = new ArrayList<>();
                    for (String pair : f[4].split(",")) {
                        int eq = pair.indexOf('=');
                        keys.add(pair.substring(0, eq));
                        ids.add(pair.substring(eq + 1));
                    }
                    pending.put(Long.parseLong(f[1]), new Pending(f[3], Long.parseLong(f[2]), keys, ids));
                }
                case "A" -> {
                    Pending p = pending.remove(Long.parseLong(f[1]));
                    recorder.writeOk(p.kind, processId, p.keys, p.ids, p.invoke, Long.parseLong(f[2]));
                }
                case "F" -> {
                    Pending p = pending.remove(Long.parseLong(f[1]));
                    switch (f[2]) {
                        case "definite" -> recorder.writeFailed(p.kind, processId, p.keys, p.ids, p.invoke,
                                new io.hybris.TransactionAbortedException("child: " + f[3]));
                        case "unknown" -> recorder.writeFailed(p.kind, processId, p.keys, p.ids, p.invoke,
                                new io.hybris.HybrisException("child: " + f[3]));
                        default -> recorder.writeFailed(p.kind, processId, p.keys, p.ids, p.invoke,
                                new IllegalStateException("child threw " + String.join(" ", f)));
                    }
                }
                default -> recorder.tallyViolation("child " + processId + " printed " + String.join(" ", f));
            }
        }
    }

    /** SIGKILLs the JVM (whatever call it is in) and waits until its output is fully recorded. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        reader.join(30_000);
    }
}
