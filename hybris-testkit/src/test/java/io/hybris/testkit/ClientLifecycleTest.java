/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.ByteRange;
import io.hybris.ChangeCursor;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ValueStream;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Clients opened and closed many times in one JVM, as application servers and test suites do, each left with a
 * subscription, a half-read stream and an async call at close: their threads and open files go, and a closed
 * client is garbage (nothing JVM-wide keeps it). Kept from the lifecycle hunt, where it held.
 */
class ClientLifecycleTest {
    @TempDir
    Path dir;

    @Test
    void clientsOpenedAndClosedManyTimesLeaveNoThreadsOrFiles() throws Exception {
        HybrisConfig config = HybrisConfig.fromMap(Map.of("hybris.f", "1", "hybris.rmds.type", "memory",
                "hybris.cloud.a.type", "memory", "hybris.cloud.b.type", "memory",
                "hybris.cloud.c.type", "directory", "hybris.cloud.c.path", dir.resolve("c").toString(),
                "hybris.chunk.threshold", "1MiB", "hybris.chunk.size", "1MiB"), Map.of());
        useAndClose(Hybris.open(config)); // classes and JVM-wide pools, before any count
        long threads = clientThreads();
        long files = openFiles();
        for (int i = 0; i < 50; i++) {
            useAndClose(Hybris.open(config));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> clientThreads() <= threads);
        if (files >= 0) {
            await().atMost(Duration.ofSeconds(10)).until(() -> openFiles() <= files);
        }
    }

    @Test
    void aClosedClientIsGarbage() {
        Hybris h = Hybris.open(OpenedClients.config(new InMemoryMetadataStore(), OpenedClients.inMemoryClouds(3))
                .sweepInterval(Duration.ofMinutes(1)).probeInterval(Duration.ofMinutes(1)).build());
        WeakReference<Hybris> ref = new WeakReference<>(h);
        useAndClose(h);
        h = null;
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            System.gc();
            return ref.get() == null;
        });
    }

    /** A put of a chunked value, a stream left half-read, a subscription and an async get, then close. */
    private static void useAndClose(Hybris h) {
        h.put("photos", "big", new byte[3 << 20]);
        h.getAsync("photos", "big").join();
        h.subscribe("photos", "", ChangeCursor.BEGINNING, change -> { });
        ValueStream stream = h.get("photos", "big", ByteRange.of(0, 10)).orElseThrow();
        try {
            assertThat(stream.read()).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        h.close();
    }

    /** The threads of Hybris clients: named {@code hybris-} and the client's id. */
    private static long clientThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("hybris-")).count();
    }

    /** Open file descriptors on Linux; -1 elsewhere. */
    private static long openFiles() {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        try (Stream<Path> list = Files.list(fds)) {
            return list.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
