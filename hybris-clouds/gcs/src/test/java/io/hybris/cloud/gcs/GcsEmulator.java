/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.testkit.TestEnvironment;

import java.net.URI;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** The fake-gcs-server of the test environment, and fresh bucket names on it. */
final class GcsEmulator {
    private static final AtomicInteger BUCKETS = new AtomicInteger();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);

    private final URI endpoint;
    private final String project;

    private GcsEmulator(URI endpoint, String project) {
        this.endpoint = endpoint;
        this.project = project;
    }

    /** The emulator; skips the test (fails it in CI) when no test environment was started. */
    static GcsEmulator require() {
        TestEnvironment env = TestEnvironment.require();
        return new GcsEmulator(env.gcsEndpoint(), env.gcsProject());
    }

    URI endpoint() {
        return endpoint;
    }

    String project() {
        return project;
    }

    /** A bucket name no other test (of this or a concurrent run) uses. */
    static String freshBucket(String purpose) {
        return "hybris-" + purpose + "-" + RUN + "-" + BUCKETS.incrementAndGet();
    }

    /** A builder for an anonymous store on the emulator that creates its bucket. */
    GcsCloudStore.Builder store(String cloudId, String bucket) {
        return GcsCloudStore.builder(cloudId).endpoint(endpoint).project(project).anonymous(true)
                .bucket(bucket).createBucket(true);
    }
}
