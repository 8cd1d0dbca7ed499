/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** Micrometer metrics for Hybris, fed by {@code HybrisListener}, and a Prometheus scrape endpoint. */
@SuppressWarnings("requires-automatic")
module io.hybris.metrics {
    requires transitive io.hybris.core;
    requires transitive micrometer.core;
    requires transitive micrometer.registry.prometheus;
    requires jdk.httpserver;

    exports io.hybris.metrics;
}
