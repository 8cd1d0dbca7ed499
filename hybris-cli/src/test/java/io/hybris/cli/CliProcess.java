/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the CLI as a separate process ({@code java -cp <test class path> io.hybris.cli.Main ...}) with its own
 * environment, standard input, and captured output and exit code.
 */
final class CliProcess {
    private static final long TIMEOUT_SECONDS = 180;

    /** What a run printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr, byte[] stdoutBytes) {
        /** Standard error's lines. */
        List<String> errLines() {
            return stderr.isEmpty() ? List.of() : List.of(stderr.split("\n"));
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    private final Map<String, String> env;

    CliProcess(Map<String, String> env) {
        this.env = env;
    }

    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    static List<String> javaCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(Main.class.getName());
        return cmd;
    }

    Result run(String... args) {
        return run(new byte[0], args);
    }

    Result run(byte[] stdin, String... args) {
        List<String> cmd = javaCommand();
        cmd.addAll(List.of(args));
        return exec(cmd, stdin);
    }

    /** Runs {@code shellCommand} under {@code script}, on a pseudo-terminal; returns what the terminal showed. */
    Result runOnTerminal(String shellCommand) {
        return exec(List.of("script", "-q", "-e", "-c", shellCommand, "/dev/null"), new byte[0]);
    }

    /** The shell words that run the CLI, for {@link #runOnTerminal}. */
    static String shellCommand(String... args) {
        StringBuilder s = new StringBuilder();
        for (String word : javaCommand()) {
            s.append(quote(word)).append(' ');
        }
        for (String a : args) {
            s.append(quote(a)).append(' ');
        }
        return s.toString().strip();
    }

    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private Result exec(List<String> cmd, byte[] stdin) {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("HYBRIS_"));
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            CompletableFuture<byte[]> out = drain(p.getInputStream());
            CompletableFuture<byte[]> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // the process did not read its input: fine
            }
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the CLI did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
            }
            byte[] o = out.join();
            return new Result(p.exitValue(), new String(o, StandardCharsets.UTF_8),
                    new String(err.join(), StandardCharsets.UTF_8), o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static CompletableFuture<byte[]> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (in) {
                in.transferTo(buf);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return buf.toByteArray();
        });
    }
}
