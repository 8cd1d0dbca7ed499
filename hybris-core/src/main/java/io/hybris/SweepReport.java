/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

/**
 * The result of one {@link Hybris#sweepOrphans()} run.
 *
 * @param examined   objects under the Hybris prefix that were looked at, over all clouds
 * @param referenced objects that are a key's current version on a cloud that metadata lists: kept
 * @param tooYoung   unreferenced objects younger than the grace period (a write may be in flight): kept
 * @param deleted    unreferenced objects deleted
 * @param failed     deletions or listings that failed (retried by the next sweep)
 */
public record SweepReport(int examined, int referenced, int tooYoung, int deleted, int failed) {
}
