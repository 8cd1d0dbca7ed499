/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.CallInterruptedException;
import io.hybris.DeadlineExceededException;
import io.hybris.HybrisConfigurationException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataStoreException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.TransactionAbortedException;
import io.hybris.WriteConflictException;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/** Maps what a command threw to its exit code and the one line the CLI prints for it. */
final class Failures {
    private Failures() {
    }

    /** The exit code for {@code e} (see {@link ExitCode}). */
    static int exitCode(Throwable e) {
        if (e instanceof CliException c) {
            return c.exitCode();
        }
        if (e instanceof CommandLine.ParameterException || e instanceof InvalidRequestException) {
            return ExitCode.USAGE;
        }
        if (e instanceof HybrisConfigurationException) {
            return ExitCode.CONFIG;
        }
        if (e instanceof WriteConflictException || e instanceof TransactionAbortedException) {
            return ExitCode.CONFLICT;
        }
        if (e instanceof MetadataStoreException || e instanceof NotEnoughCloudsException
                || e instanceof DeadlineExceededException || e instanceof CallInterruptedException) {
            return ExitCode.UNAVAILABLE;
        }
        return ExitCode.OTHER;
    }

    /** One line: what went wrong and, where the code says what to fix, a hint. */
    static String message(Throwable e) {
        String text = text(e);
        String hint = switch (exitCode(e)) {
            case ExitCode.UNAVAILABLE -> e instanceof CallInterruptedException || e instanceof CliException
                    || text.contains("check") ? ""
                    : text.contains("no copy matching") ? " (no cloud returned an intact copy: check that the clouds"
                    + " are reachable; `hybris scrub --deep` finds copies missing or corrupt, `--repair` rebuilds"
                    + " them from a good one)"
                    : " (check that the metadata store and the clouds of the configuration are reachable)";
            case ExitCode.CONFIG -> text.contains("--config") ? "" : " (fix the configuration: --config FILE,"
                    + " HYBRIS_* environment variables, or see docs/cli.md)";
            default -> "";
        };
        return oneLine(text + hint);
    }

    private static String text(Throwable e) {
        if (e instanceof UncheckedIOException u && u.getCause() != null) {
            e = u.getCause();
        }
        if (e instanceof NoSuchFileException n) {
            return "no such file: " + n.getFile();
        }
        if (e instanceof AccessDeniedException a) {
            return "permission denied: " + a.getFile();
        }
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return m;
    }

    static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", "; ").strip();
    }

    /** The stack trace of {@code e}, for --debug. */
    static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
