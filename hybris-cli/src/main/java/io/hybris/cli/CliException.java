/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

/** A failure the CLI itself detected, with the exit code it ends with and a one-line message naming the fix. */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }

    static CliException notFound(String container, String key) {
        return new CliException(ExitCode.NOT_FOUND, container + "/" + key + " not found (never written, or deleted)");
    }

    static CliException usage(String message) {
        return new CliException(ExitCode.USAGE, message);
    }
}
