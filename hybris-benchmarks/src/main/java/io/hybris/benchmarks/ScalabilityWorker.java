/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One client process of {@link ScalabilityBenchmark}'s multi-process mode: it opens both sides on the given store,
 * creates the keys of its callers, prints {@code READY} and then serves commands read from stdin, one a line:
 * {@code RUN <side> <GET|PUT> <callers> <warm-up ms> <measure ms>} answers with one {@code RESULT} line
 * ({@link ScalabilityLoad.Result#encode()}); {@code EXIT} closes the clients and ends the process. It also ends, at
 * once, when the process that launched it does.
 *
 * <p>Arguments: {@code <ZOOKEEPER|CONSUL> <endpoint> <process index> <callers at most>}.
 */
public final class ScalabilityWorker {
    private ScalabilityWorker() {
    }

    /** Runs the worker (launched by {@link ScalabilityBenchmark}, not by hand). */
    public static void main(String[] args) throws Exception {
        ScalabilitySides.StoreKind kind = ScalabilitySides.StoreKind.valueOf(args[0]);
        String endpoint = args[1];
        String namespace = "p" + args[2];
        int callers = Integer.parseInt(args[3]);
        // a worker whose benchmark JVM died (killed mid-run) would otherwise finish its current command, up to a 30 s
        // JIT warm-up, before it read end of input, and load the cores of whatever runs next
        ProcessHandle.current().parent()
                .ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        try (ScalabilitySides.Side hybris = ScalabilitySides.open("hybris", kind, endpoint, namespace);
             ScalabilitySides.Side raw = ScalabilitySides.open("raw", kind, endpoint, namespace)) {
            hybris.preload(callers);
            raw.preload(callers);
            out.println("READY");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("EXIT"); line = in.readLine()) {
                String[] f = line.split(" ");
                ScalabilitySides.Side side = f[1].equals("hybris") ? hybris : raw;
                out.println(ScalabilityLoad.run(side, ScalabilityLoad.Op.valueOf(f[2]), 0, Integer.parseInt(f[3]),
                        Long.parseLong(f[4]), Long.parseLong(f[5])).encode());
            }
        }
        out.flush();
        System.exit(0); // client libraries may leave non-daemon threads behind
    }

    /** {@code count} worker processes on one store, driven together. */
    static final class Processes implements AutoCloseable {
        private final List<Process> processes = new ArrayList<>();
        private final List<BufferedReader> outputs = new ArrayList<>();
        private final List<Writer> inputs = new ArrayList<>();

        Processes(int count, ScalabilitySides.StoreKind kind, String endpoint, int callersEach) throws IOException {
            String java = ProcessHandle.current().info().command().orElse("java");
            try {
                for (int p = 0; p < count; p++) {
                    List<String> command = new ArrayList<>(List.of(java, "-Xmx512m",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
                    String bound = System.getProperty(ScalabilitySides.ZOOKEEPER_CALL_BOUND);
                    if (bound != null) {
                        command.add("-D" + ScalabilitySides.ZOOKEEPER_CALL_BOUND + "=" + bound);
                    }
                    if (Boolean.getBoolean(ScalabilitySides.CONSUL_RAW_CAS_ONLY)) {
                        command.add("-D" + ScalabilitySides.CONSUL_RAW_CAS_ONLY + "=true");
                    }
                    String options = System.getProperty(ScalabilitySides.WORKER_JVM_OPTIONS, "").strip();
                    for (String option : options.isEmpty() ? new String[0] : options.split("\\s+")) {
                        command.add(option.replace("{worker}", Integer.toString(p)));
                    }
                    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                            ScalabilityWorker.class.getName(), kind.name(), endpoint, Integer.toString(p),
                            Integer.toString(callersEach)));
                    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                            .start();
                    processes.add(process);
                    outputs.add(new BufferedReader(new InputStreamReader(process.getInputStream(),
                            StandardCharsets.UTF_8)));
                    inputs.add(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
                }
                for (int p = 0; p < count; p++) {
                    expect(p, "READY");
                }
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
        }

        private String expect(int p, String prefix) throws IOException {
            for (String line = outputs.get(p).readLine(); line != null; line = outputs.get(p).readLine()) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new IOException("worker process " + p + " ended before " + prefix);
        }

        /**
         * Runs {@code callersEach} callers of {@code side} in every process at once; their results as one, with the
         * CPU time of the processes and of this JVM (the in-process metadata store) over the window.
         */
        ScalabilityLoad.Result run(String side, ScalabilityLoad.Op op, int callersEach, long warmupMs, long measureMs)
                throws IOException, InterruptedException {
            String command = String.join(" ", "RUN", side, op.name(), Integer.toString(callersEach),
                    Long.toString(warmupMs), Long.toString(measureMs)) + "\n";
            for (Writer in : inputs) {
                in.write(command);
                in.flush();
            }
            // the window as the workers place it (ScalabilityLoad.run), to within the time a command takes to arrive
            long from = System.nanoTime() + 50_000_000L + warmupMs * 1_000_000L;
            ScalabilityLoad.sleepUntil(from);
            long cpu0 = ScalabilityLoad.processCpuNanos();
            ScalabilityLoad.sleepUntil(from + measureMs * 1_000_000L);
            long cpu1 = ScalabilityLoad.processCpuNanos();
            List<ScalabilityLoad.Result> parts = new ArrayList<>();
            for (int p = 0; p < processes.size(); p++) {
                parts.add(ScalabilityLoad.Result.decode(expect(p, "RESULT ")));
            }
            return ScalabilityLoad.Result.merge(parts, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0);
        }

        @Override
        public void close() {
            for (Writer in : inputs) {
                try {
                    in.write("EXIT\n");
                    in.close();
                } catch (IOException gone) {
                    // the process has ended already
                }
            }
            for (Process process : processes) {
                try {
                    if (!process.waitFor(30, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
