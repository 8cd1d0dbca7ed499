/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionedValue;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The outage scenario every networked {@link MetadataStore} must survive, as an abstract JUnit Jupiter suite: the
 * server goes away under a connected store, every call fails fast with a clear
 * {@link MetadataUnavailableException} naming the operation, and after the server comes back on the same data
 * the store answers again with nothing lost, nothing half-written and no watch lost.
 *
 * <p>A store supplies the server and the store through hooks:
 * <pre>{@code
 * class MyStoreOutageTest extends MetadataStoreOutageContract<MyMetadataStore> {
 *     private MyTestServer server;
 *
 *     protected void startServer() { server = MyTestServer.startWithDataOnDisk(); }
 *     protected MyMetadataStore newStore() {
 *         return MyMetadataStore.builder().address(server.address()).operationTimeout(Duration.ofSeconds(1)).build();
 *     }
 *     protected void stopServer() { server.kill(); }
 *     protected void restartServer() { server.restart(); }   // same data, same address
 *     protected void closeServer() { if (server != null) server.close(); }
 *     protected String serverName() { return "MyStore"; }
 *     protected Duration failWithin() { return Duration.ofSeconds(4); }   // twice the documented worst case
 * }
 * }</pre>
 *
 * <p>Before each test the server is started, a store is built on it and {@link #KEY} is created with the value
 * {@code "before"}; after each test the store and then the server are closed. A subclass may add store-specific
 * outage tests (for example a session expiry) that use {@link #store}, {@link #KEY} and {@link #bytes}.
 *
 * <p>A pending watch must never be lost across the outage: a store either fires it during the outage (it cannot
 * know whether the key changed meanwhile; then {@link #watchFiresDuringOutage()} returns {@code true}) or keeps it
 * and fires it on the first change after recovery. Either way it fires exactly once.
 *
 * @param <S> the store type, so that store-specific tests and hooks see its own methods
 */
public abstract class MetadataStoreOutageContract<S extends MetadataStore> {
    /** The key each test creates before the outage, with the value {@code "before"}. */
    protected static final MetadataKey KEY = new MetadataKey("photos", "cat.jpg");
    private static final MetadataKey NEW_KEY = new MetadataKey("photos", "new");

    /** The store under test, built by {@link #newStore()} on the running server before each test. */
    protected S store;

    /** Starts a server whose data survives {@link #stopServer()} and {@link #restartServer()}. */
    protected abstract void startServer() throws Exception;

    /**
     * A store on the started server with short timeouts, so that calls fail within {@link #failWithin()} while the
     * server is down.
     */
    protected abstract S newStore() throws Exception;

    /** The outage: stops or kills the server (its data stays on disk). */
    protected abstract void stopServer() throws Exception;

    /** Brings the stopped server back on the same data and address. */
    protected abstract void restartServer() throws Exception;

    /** Releases the server, whether it is running or stopped; called after each test, also after a failed start. */
    protected abstract void closeServer() throws Exception;

    /** The name every unavailability message carries, e.g. {@code "ZooKeeper"}. */
    protected abstract String serverName();

    /** The longest a call may take to fail while the server is down: twice the store's documented worst case. */
    protected abstract Duration failWithin();

    /** Further text every unavailability message must contain (e.g. the timeout that ran out); none by default. */
    protected List<String> unavailableMessageParts() {
        return List.of();
    }

    /**
     * Whether a watch pending when the server dies fires during the outage (a store that loses its change feed
     * with the connection must fire, so that a reader re-reads); {@code false} by default: the store keeps the
     * watch and fires it on the first change after recovery.
     */
    protected boolean watchFiresDuringOutage() {
        return false;
    }

    /** Store-specific checks right after a watch fired during the outage; nothing by default. */
    protected void afterWatchFiredDuringOutage() {
    }

    /** The longest the test waits for the watch to fire, during the outage or after recovery. */
    protected Duration watchTimeout() {
        return Duration.ofSeconds(15);
    }

    /** The longest the test waits for the store to answer again after {@link #restartServer()}. */
    protected Duration recoveryTimeout() {
        return Duration.ofSeconds(30);
    }

    @BeforeEach
    void startServerAndStore() throws Exception {
        startServer();
        store = newStore();
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("before"), MetadataVersion.ABSENT));
    }

    @AfterEach
    void closeStoreAndServer() throws Exception {
        try {
            if (store != null) {
                store.close();
                store = null;
            }
        } finally {
            closeServer();
        }
    }

    @Test
    void withTheServerDownCallsFailFastAndAfterRestartNothingIsLost() throws Exception {
        VersionedValue before = store.read(KEY).orElseThrow();
        AtomicInteger watchFired = new AtomicInteger();
        store.readAndWatch(KEY, watchFired::incrementAndGet);

        stopServer();

        if (watchFiresDuringOutage()) {
            // the change feed failed for good: the watch fires so that the reader re-reads
            await().atMost(watchTimeout()).until(() -> watchFired.get() == 1);
            afterWatchFiredDuringOutage();
        }
        assertUnavailable(() -> store.read(KEY), "read of photos/cat.jpg");
        assertUnavailable(() -> store.readAndWatch(KEY, () -> { }), "read of photos/cat.jpg");
        assertUnavailable(() -> store.conditionalUpdate(new MetadataUpdate(KEY, bytes("x"), before.version())),
                "conditional update of photos/cat.jpg");
        assertUnavailable(() -> store.conditionalUpdate(new MetadataUpdate(NEW_KEY, bytes("x"),
                MetadataVersion.ABSENT)), "conditional update of photos/new");
        assertUnavailable(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(KEY, bytes("x"), before.version()),
                new MetadataUpdate(NEW_KEY, bytes("x"), MetadataVersion.ABSENT))),
                "atomic update of 2 keys");
        assertUnavailable(() -> store.list("photos", "", null, 10), "list of container photos");
        assertUnavailable(store::containers, "list containers");

        restartServer();

        VersionedValue recovered = await().atMost(recoveryTimeout())
                .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                .until(() -> store.read(KEY).orElse(null), v -> v != null);
        assertThat(recovered.value()).isEqualTo(bytes("before"));
        assertThat(recovered.version()).isEqualTo(before.version());
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("after"), recovered.version()));
        assertThat(store.read(KEY).orElseThrow().value()).isEqualTo(bytes("after"));
        assertThat(store.read(NEW_KEY)).as("failed create left nothing").isEmpty();
        // fired once: during the outage, or now on the change (a watch kept across the outage)
        await().atMost(watchTimeout()).until(() -> watchFired.get() >= 1);
        assertThat(watchFired).hasValue(1);
    }

    /** Asserts that {@code call} fails within {@link #failWithin()} as unavailable, naming the operation. */
    protected final void assertUnavailable(ThrowingCallable call, String operation) {
        long t0 = System.nanoTime();
        assertThatThrownBy(call)
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining(operation)
                .hasMessageContaining(serverName())
                .satisfies(e -> unavailableMessageParts().forEach(part -> assertThat(e).hasMessageContaining(part)));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("time to fail: %s", operation).isLessThan(failWithin());
    }

    /** The UTF-8 bytes of {@code s}. */
    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
