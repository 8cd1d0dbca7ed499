/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.io.IOException;

/**
 * For a child JVM started by {@link ChildJvm}: ends the child when its parent is gone. The parent holds the write
 * end of the child's standard input and never writes to it, so the child reads end-of-stream exactly when the
 * parent dies (a test JVM killed by a timeout, say), and then halts instead of running on, orphaned.
 */
final class ParentWatch {
    private ParentWatch() {
    }

    /** Starts a daemon thread that halts this JVM (exit code 2) once standard input ends. */
    static void haltWhenParentDies() {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent writes nothing; keep reading until the pipe closes
                }
            } catch (IOException e) {
                // the pipe broke: the parent is gone too
            }
            Runtime.getRuntime().halt(2);
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
