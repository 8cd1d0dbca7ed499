/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

/** The CLI's documented exit codes (docs/cli.md). */
final class ExitCode {
    /** The command did what was asked. */
    static final int OK = 0;
    /** get, cat, stat or versions of a key that has no value. */
    static final int NOT_FOUND = 1;
    /** Bad usage: an unknown command or option, a missing or malformed argument, an invalid name or range. */
    static final int USAGE = 2;
    /** The configuration is wrong: a missing file, an unknown or malformed key, an unknown provider type. */
    static final int CONFIG = 3;
    /** The metadata store or too many clouds could not be reached, or the deadline passed. */
    static final int UNAVAILABLE = 4;
    /**
     * A precondition (--if-match, --if-absent) did not hold, a transaction was aborted by a conflict, or a streamed
     * put was overtaken by a conditional write or deletion (nothing stored: put again).
     */
    static final int CONFLICT = 5;
    /** Anything else. */
    static final int OTHER = 10;

    private ExitCode() {
    }
}
