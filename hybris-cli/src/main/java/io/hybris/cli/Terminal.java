/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the process's standard output and standard error are terminals. On Linux from the device behind
 * {@code /proc/self/fd/N} (a {@code /dev/pts/*} or {@code /dev/tty*}); elsewhere {@link System#console()}, which
 * Java gives only when standard input and output are both a terminal.
 */
final class Terminal {
    private Terminal() {
    }

    static boolean stdoutIsTerminal() {
        return isTerminal(1);
    }

    static boolean stderrIsTerminal() {
        return isTerminal(2);
    }

    private static boolean isTerminal(int fd) {
        Path link = Path.of("/proc/self/fd/" + fd);
        if (Files.isSymbolicLink(link)) {
            try {
                String target = Files.readSymbolicLink(link).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")
                        || target.equals("/dev/console");
            } catch (IOException | UnsupportedOperationException e) {
                // fall through
            }
        }
        return System.console() != null;
    }

    /** The terminal's width from {@code $COLUMNS}, else 80. */
    static int width() {
        try {
            int w = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").trim());
            return w >= 40 ? w : 80;
        } catch (NumberFormatException e) {
            return 80;
        }
    }
}
