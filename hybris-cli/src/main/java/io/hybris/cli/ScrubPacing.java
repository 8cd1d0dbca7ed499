/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.ScrubOptions;
import io.hybris.spi.support.ConfigValues;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The state file and rate limits {@code scrub} and {@code migrate} share (a picocli mixin). */
final class ScrubPacing {
    @Option(names = "--state", paramLabel = "FILE", description = "State file: resume after the last completed page, "
            + "and skip ranges unchanged since last verified.")
    Path state;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "0", description = "At most N cloud requests "
            + "per second: 0 (unlimited) or at least 0.01.")
    double maxRequests;

    @Option(names = "--max-bytes", paramLabel = "SIZE", defaultValue = "0", description = "At most SIZE bytes per "
            + "second, e.g. 50MiB: 0 (unlimited) or at least 1KiB.")
    String maxBytes;

    /** {@code o} with these options; a usage error for a bad value. */
    ScrubOptions apply(ScrubOptions o) {
        long bytes;
        try {
            bytes = ConfigValues.parseSize("--max-bytes", maxBytes);
        } catch (RuntimeException e) {
            throw CliException.usage("--max-bytes " + maxBytes + " is not a size (e.g. 0, 50MiB)");
        }
        if (maxRequests != 0 && !(maxRequests >= ScrubOptions.MIN_REQUESTS_PER_SECOND
                && maxRequests < Double.POSITIVE_INFINITY)) {
            throw CliException.usage("--max-requests must be 0 (unlimited) or a number of at least "
                    + ScrubOptions.MIN_REQUESTS_PER_SECOND + " (one request per 100 s), not " + maxRequests);
        }
        if (bytes != 0 && bytes < ScrubOptions.MIN_BYTES_PER_SECOND) {
            throw CliException.usage("--max-bytes must be 0 (unlimited) or at least 1KiB, not " + maxBytes);
        }
        ScrubOptions paced = o.requestsPerSecond(maxRequests).bytesPerSecond(bytes);
        return state == null ? paced : paced.stateFile(state);
    }
}
