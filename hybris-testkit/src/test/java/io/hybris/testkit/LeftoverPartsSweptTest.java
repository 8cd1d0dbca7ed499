/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Completing an upload in parts deletes the chunks of parts it left out (here: a part uploaded twice, the first
 * attempt replaced). A cloud that fails that clean-up keeps them, and the orphan sweep keeps every chunk of a current
 * version: without more, they stayed for as long as the value is current. The client remembers the failed clean-up
 * and its next sweeps try again.
 */
class LeftoverPartsSweptTest {
    /** Fails listings and deletions while active. */
    private static final class RefusingCleanups extends FaultInjectingCloudStore {
        final AtomicInteger refused = new AtomicInteger();

        RefusingCleanups(CloudStore delegate) {
            super(delegate);
            setActive(false);
        }

        @Override
        public List<CloudObject> list(String prefix) {
            if (isActive()) {
                refused.incrementAndGet();
                throw new TransientCloudException(id(), "injected: listing refused");
            }
            return super.list(prefix);
        }

        @Override
        public void delete(String objectKey) {
            if (isActive()) {
                refused.incrementAndGet();
                throw new TransientCloudException(id(), "injected: deletion refused");
            }
            super.delete(objectKey);
        }
    }

    private final Map<String, RefusingCleanups> faults = new HashMap<>();
    private final StreamingFixture fx = new StreamingFixture(c -> {
        RefusingCleanups f = new RefusingCleanups(c);
        faults.put(c.id(), f);
        return f;
    });

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void chunksOfAReplacedPartThatACloudFailedToDeleteGoAtTheNextSweep() {
        Hybris hybris = fx.open(b -> b.sweepInterval(Duration.ZERO));
        PartUploads parts = PartUploads.of(hybris);
        PartUpload upload = parts.start(C, "k");
        UploadedPart p1 = parts.upload(upload, 1, new ByteArrayInputStream(value(CHUNK, 1)), CHUNK);
        Map<String, List<String>> before = fx.objects();
        parts.upload(upload, 2, new ByteArrayInputStream(value(100, 2)), 100);
        Map<String, List<String>> replacedAt = new HashMap<>();
        fx.objects().forEach((cloud, names) -> {
            List<String> added = new ArrayList<>(names);
            added.removeAll(before.get(cloud));
            if (!added.isEmpty()) {
                replacedAt.put(cloud, added);
            }
        });
        assertThat(replacedAt).as("the first attempt of part 2 is stored on f+1 clouds").hasSize(2);
        UploadedPart p2 = parts.upload(upload, 2, new ByteArrayInputStream(value(100, 22)), 100);
        String failing = replacedAt.keySet().iterator().next();
        List<String> leftover = replacedAt.get(failing);
        faults.get(failing).setActive(true);

        parts.complete(upload, List.of(p1, p2), PutOptions.none());
        // refused twice: the completion's check that its chunks are still stored (before it commits), then the
        // clean-up's listing (after it, in the background)
        await().atMost(Duration.ofSeconds(10)).until(() -> faults.get(failing).refused.get() >= 2);
        faults.get(failing).setActive(false);
        assertThat(fx.objects().get(failing)).as("the clean-up failed there").containsAll(leftover);

        // a sweep may start before the failed clean-up is remembered; one after it deletes the leftover
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            hybris.sweepOrphans();
            return fx.objects().get(failing).stream().noneMatch(leftover::contains);
        });
        byte[] expected = new byte[CHUNK + 100];
        System.arraycopy(value(CHUNK, 1), 0, expected, 0, CHUNK);
        System.arraycopy(value(100, 22), 0, expected, CHUNK, 100);
        assertThat(hybris.get(C, "k")).hasValue(expected);
        for (String other : replacedAt.keySet()) {
            assertThat(fx.objects().get(other)).noneMatch(leftover::contains);
        }
    }
}
