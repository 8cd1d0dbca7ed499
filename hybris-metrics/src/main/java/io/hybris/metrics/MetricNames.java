/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metrics;

import java.util.Locale;

/** The names and tag keys of every meter {@link HybrisMetrics} registers (docs/metrics.md describes each). */
public final class MetricNames {
    /** Timer: client calls, tags {@code op}, {@code outcome}. */
    public static final String OPERATIONS = "hybris.operations";
    /** Counter: completed cloud requests, tags {@code cloud}, {@code op}, {@code outcome}. */
    public static final String CLOUD_REQUESTS = "hybris.cloud.requests";
    /** Timer: latency of completed cloud requests, tags {@code cloud}, {@code op}. */
    public static final String CLOUD_LATENCY = "hybris.cloud.latency";
    /** Counter: failed cloud requests by kind, tags {@code cloud}, {@code op}, {@code kind}. */
    public static final String CLOUD_ERRORS = "hybris.cloud.errors";
    /** Counter (bytes): payload bytes, tags {@code cloud}, {@code direction}. */
    public static final String CLOUD_BYTES = "hybris.cloud.bytes";
    /** Counter: requests Hybris stopped waiting for, tags {@code cloud}, {@code op}. */
    public static final String CLOUD_ABANDONED = "hybris.cloud.abandoned";
    /** Timer: metadata-store calls, tags {@code op}, {@code outcome}. */
    public static final String METADATA_CALLS = "hybris.metadata.calls";
    /** Counter: conditional updates that met a version conflict, tag {@code resolution}. */
    public static final String CAS_CONFLICTS = "hybris.cas.conflicts";
    /** Counter: GETs that fell back to the worst case. */
    public static final String WORST_CASE_GETS = "hybris.get.worst_case";
    /** Counter: worst-case GETs restarted by a metadata change. */
    public static final String GET_RESTARTS = "hybris.get.restarts";
    /** Counter: objects deleted by background garbage collection, tags {@code cloud}, {@code cause}. */
    public static final String GC_DELETIONS = "hybris.gc.deletions";
    /** Counter: objects deleted by the orphan sweep, tag {@code cloud}. */
    public static final String SWEEP_DELETIONS = "hybris.sweep.deletions";
    /** Counter: value-cache lookups, tag {@code result}. */
    public static final String CACHE_REQUESTS = "hybris.cache.requests";
    /**
     * Counter: cloud requests by price class, as the cost report prices them ({@code Hybris.cloudUsage()}), tags
     * {@code cloud}, {@code class} ({@code put_list}, {@code get_head}, {@code delete}).
     */
    public static final String BILLABLE_REQUESTS = "hybris.cloud.billable.requests";
    /** Counter: payload bytes as the cost report prices them, tags {@code cloud}, {@code direction} (in, out). */
    public static final String BILLABLE_BYTES = "hybris.cloud.billable.bytes";

    public static final String TAG_CLOUD = "cloud";
    public static final String TAG_CLASS = "class";
    public static final String TAG_OP = "op";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_KIND = "kind";
    public static final String TAG_DIRECTION = "direction";
    public static final String TAG_RESOLUTION = "resolution";
    public static final String TAG_CAUSE = "cause";
    public static final String TAG_RESULT = "result";

    private MetricNames() {
    }

    /** A tag value for an enum constant: its name in lower case ({@code NOT_FOUND} is {@code not_found}). */
    public static String tag(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
