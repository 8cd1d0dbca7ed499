/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The result of {@link Hybris#rewrapDataKeys()} (KEK rotation).
 *
 * @param examined     metadata entries looked at, over all containers
 * @param rewrapped    entries whose data key was re-wrapped under the current KEK
 * @param alreadyCurrent entries already under the current KEK (left alone; a re-run resumes a rotation)
 * @param notEncrypted tombstones and plaintext values (nothing to re-wrap)
 */
public record RewrapReport(int examined, int rewrapped, int alreadyCurrent, int notEncrypted) {
}
