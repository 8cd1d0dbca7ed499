/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.cost.CloudUsage;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The counting decorator's rules (docs/cost.md, "Counting"), call by call: a failed call still counts as a request,
 * uploaded bytes are those of puts that succeeded, and the bytes a streamed GET delivers are egress like a whole
 * GET's.
 */
class CloudUsageCountersTest {
    /** A cloud whose puts and lists fail while {@code failing} is set. */
    private static final class Failing implements CloudStore {
        private final InMemoryCloudStore delegate = new InMemoryCloudStore("c0");
        volatile boolean failing;

        @Override
        public String id() {
            return delegate.id();
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (failing) {
                throw new IllegalStateException("put refused (injected)");
            }
            delegate.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            return delegate.get(objectKey, maxBytes);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            if (failing) {
                throw new IllegalStateException("list refused (injected)");
            }
            return delegate.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            delegate.delete(objectKey);
        }
    }

    @Test
    void aFailedListOrPutCountsAsARequestAndAFailedPutUploadsNothing() {
        CloudUsageCounters counters = new CloudUsageCounters();
        Failing raw = new Failing();
        CloudStore cloud = counters.wrap(raw);
        cloud.put("a", new byte[100]);
        assertThat(counters.snapshot().get("c0")).isEqualTo(new CloudUsage(1, 0, 0, 100, 0));

        raw.failing = true;
        assertThatThrownBy(() -> cloud.list("")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cloud.put("b", new byte[1000])).isInstanceOf(IllegalStateException.class);
        assertThat(counters.snapshot().get("c0")).isEqualTo(new CloudUsage(3, 0, 0, 100, 0));

        raw.failing = false;
        assertThat(cloud.list("")).hasSize(1); // one object: one list request
        assertThat(counters.snapshot().get("c0")).isEqualTo(new CloudUsage(4, 0, 0, 100, 0));
    }

    @Test
    void aStreamedGetCountsItsBytesAsEgressLikeAWholeGet() {
        CloudUsageCounters counters = new CloudUsageCounters();
        CloudStore cloud = counters.wrap(new InMemoryCloudStore("c0"));
        cloud.put("a", new byte[300]);
        assertThat(cloud.get("a", 1000)).hasValueSatisfying(v -> assertThat(v).hasSize(300));
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        Optional<byte[]> got = cloud.get("a", 1000, streamed::write);
        assertThat(got).isPresent();
        assertThat(streamed.size()).isEqualTo(300);
        assertThat(cloud.get("missing", 1000)).isEmpty();
        assertThat(counters.snapshot().get("c0")).isEqualTo(new CloudUsage(1, 3, 0, 300, 600));
    }
}
