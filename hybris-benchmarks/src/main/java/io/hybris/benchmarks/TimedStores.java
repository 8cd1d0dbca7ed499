/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.VersionedValue;
import io.hybris.testkit.ForwardingCloudStore;
import io.hybris.testkit.ForwardingMetadataStore;

import java.time.Duration;
import java.util.Optional;

/** A cloud and a metadata store that time their reads, for the cloud-path benchmark's breakdown of a GET. */
final class TimedStores {
    private TimedStores() {
    }

    /** Times each GET of the cloud below (with its consumer of the bytes); forwards everything else. */
    static final class TimedCloudStore extends ForwardingCloudStore {
        volatile double lastGetMs;

        TimedCloudStore(CloudStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
            long t0 = System.nanoTime();
            try {
                return delegate().get(objectKey, maxBytes, onBytes);
            } finally {
                lastGetMs = (System.nanoTime() - t0) / 1e6;
            }
        }
    }

    /** Times each read of the metadata store below; forwards everything else, its call-time bound included. */
    static final class TimedMetadataStore extends ForwardingMetadataStore {
        volatile double lastReadMs;

        TimedMetadataStore(MetadataStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<VersionedValue> read(MetadataKey key) {
            long t0 = System.nanoTime();
            try {
                return delegate().read(key);
            } finally {
                lastReadMs = (System.nanoTime() - t0) / 1e6;
            }
        }

        @Override
        public Optional<Duration> callTimeBound() {
            return delegate().callTimeBound(); // measured as configured: in place when the store allows it
        }

        @Override
        public String describe() {
            return "timed " + delegate().describe();
        }
    }
}
