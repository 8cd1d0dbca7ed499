/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import picocli.CommandLine;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the {@code hybris} command line: parses the arguments (picocli), runs the command, and turns
 * whatever it threw into one line on standard error and a documented exit code ({@link ExitCode}); with
 * {@code --debug} the stack trace follows, with {@code --json} an error document goes to standard output too.
 */
public final class Main {
    private Main() {
    }

    /** Runs the CLI and exits with its exit code. */
    public static void main(String[] args) {
        int code = run(args, System.in, System.out, System.err, System.getenv());
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs the CLI on the given streams and environment; returns the exit code. */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
        List<String> argList = Arrays.asList(args);
        boolean debug = argList.contains("--debug");
        configureLogging(debug);
        HybrisCommand root = new HybrisCommand();
        Session session = new Session(root, in, out, err, env);
        root.session = session;
        CommandLine cl = new CommandLine(root);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, rest) -> {
            String command = ex.getCommandLine().getCommandSpec().qualifiedName();
            err.println("hybris: " + Failures.oneLine(ex.getMessage()) + " (see '" + command + " --help')");
            if (debug) {
                err.print(Failures.stackTrace(ex));
            }
            return ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parsed) -> report(ex, root, out, err));
        int code;
        try {
            code = cl.execute(args);
        } finally {
            try {
                session.close();
            } catch (RuntimeException e) {
                if (debug) {
                    err.print("hybris: closing the client failed: " + Failures.stackTrace(e));
                }
            }
        }
        out.flush();
        if (out.checkError() && code == ExitCode.OK) {
            // a PrintStream keeps write errors to itself: a full disk, a closed pipe, /dev/full; a script relying on
            // the exit code must not take a truncated copy for a whole one (coreutils: "write error", exit 1)
            err.println("hybris: writing to standard output failed (a full disk, or a closed pipe); the output is"
                    + " incomplete");
            return ExitCode.OTHER;
        }
        return code;
    }

    private static int report(Exception ex, HybrisCommand root, PrintStream out, PrintStream err) {
        int code = Failures.exitCode(ex);
        String message = Failures.message(ex);
        out.flush();
        err.println("hybris: " + message);
        if (root.debug) {
            err.print(Failures.stackTrace(ex));
        }
        if (root.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("exitCode", code);
            error.put("type", ex.getClass().getSimpleName());
            error.put("message", message);
            doc.put("error", error);
            out.println(Json.write(doc));
        }
        return code;
    }

    /** slf4j-simple: silent unless --debug (then INFO), on standard error. Set before any logger exists. */
    private static void configureLogging(boolean debug) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", debug ? "info" : "off");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    }
}
