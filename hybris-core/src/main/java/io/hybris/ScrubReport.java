/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * What a scrub ({@link Hybris#scrub}) or a migration ({@link Hybris#migrate}) did, in total (docs/scrub.md). A run
 * resumed from a {@link ScrubOptions#stateFile state file} counts what the stopped runs it resumes had done up to
 * their checkpoints too.
 *
 * @param keysChecked    keys whose current version was checked
 * @param keysSkipped    keys not checked because their range's listing digest matched the last verified state
 * @param healthy        keys found healthy
 * @param repaired       keys whose missing or corrupt copies were rebuilt (or moved, for a migration)
 * @param degraded       keys left with missing or corrupt copies (no repair asked, or it failed)
 * @param unrecoverable  keys without enough good copies to rebuild
 * @param superseded     keys a concurrent write replaced while they were handled
 * @param copiesMissing  copies found missing
 * @param copiesCorrupt  copies found corrupt
 * @param copiesRepaired copies rebuilt
 * @param bytesRead      bytes read from clouds to check and rebuild
 * @param bytesWritten   bytes written to clouds by repair
 * @param complete       whether every container was finished (false if a container could not be listed)
 */
public record ScrubReport(long keysChecked, long keysSkipped, long healthy, long repaired, long degraded,
                          long unrecoverable, long superseded, long copiesMissing, long copiesCorrupt,
                          long copiesRepaired, long bytesRead, long bytesWritten, boolean complete) {
}
