package io.hybris.rmds.zookeeper;

import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionedValue;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
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

/** Session expiry and a stopped server: calls fail fast and clearly, then recover without losing data. */
class ZooKeeperOutageTest {
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    /** Twice the documented worst case (connect-timeout + operation-timeout). */
    private static final Duration FAIL_WITHIN = CONNECTION_TIMEOUT.plus(OPERATION_TIMEOUT).multipliedBy(2);
    private static final MetadataKey KEY = new MetadataKey("photos", "cat.jpg");

    private TestingServer server;
    private ZooKeeperMetadataStore store;

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
        store = ZooKeeperMetadataStore.builder()
                .connect(server.getConnectString())
                .root("/outage")
                .sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(CONNECTION_TIMEOUT)
                .operationTimeout(OPERATION_TIMEOUT)
                .build();
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("before"), MetadataVersion.ABSENT));
    }

    @AfterEach
    void stop() throws Exception {
        store.close();
        server.close();
    }

    @Test
    void afterSessionExpiryCallsSucceedAgainAndNothingIsLost() throws Exception {
        AtomicInteger watchFired = new AtomicInteger();
        store.readAndWatch(KEY, watchFired::incrementAndGet);
        ZooKeeper old = store.curator().getZookeeperClient().getZooKeeper();
        long oldSession = old.getSessionId();

        old.getTestable().injectSessionExpiration();

        await().atMost(Duration.ofSeconds(10)).until(() -> watchFired.get() == 1); // the watch died with the session
        VersionedValue after = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                .until(() -> store.read(KEY).orElse(null), v -> v != null);
        assertThat(after.value()).isEqualTo(bytes("before"));
        assertThat(store.curator().getZookeeperClient().getZooKeeper().getSessionId()).isNotEqualTo(oldSession);

        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("after"), after.version()));
        assertThat(store.read(KEY).orElseThrow().value()).isEqualTo(bytes("after"));
        assertThat(watchFired).hasValue(1);
    }

    @Test
    void withTheServerStoppedCallsFailFastAndRecoverAfterRestart() throws Exception {
        VersionedValue before = store.read(KEY).orElseThrow();

        server.stop();

        assertUnavailable(() -> store.read(KEY), "read of photos/cat.jpg");
        assertUnavailable(() -> store.readAndWatch(KEY, () -> { }), "read of photos/cat.jpg");
        assertUnavailable(() -> store.conditionalUpdate(new MetadataUpdate(KEY, bytes("x"), before.version())),
                "conditional update of photos/cat.jpg");
        assertUnavailable(() -> store.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "new"),
                bytes("x"), MetadataVersion.ABSENT)), "conditional update of photos/new");
        assertUnavailable(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(KEY, bytes("x"), before.version()),
                new MetadataUpdate(new MetadataKey("photos", "new"), bytes("x"), MetadataVersion.ABSENT))),
                "atomic update of 2 keys");
        assertUnavailable(() -> store.list("photos", "", null, 10), "list of container photos");

        server.restart();

        VersionedValue recovered = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                .until(() -> store.read(KEY).orElse(null), v -> v != null);
        assertThat(recovered.value()).isEqualTo(bytes("before"));
        assertThat(recovered.version()).isEqualTo(before.version());
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("after"), recovered.version()));
        assertThat(store.read(KEY).orElseThrow().value()).isEqualTo(bytes("after"));
        assertThat(store.read(new MetadataKey("photos", "new"))).as("failed create left nothing").isEmpty();
    }

    private static void assertUnavailable(ThrowingCallable call, String operation) {
        long t0 = System.nanoTime();
        assertThatThrownBy(call)
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining(operation)
                .hasMessageContaining("ZooKeeper");
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("time to fail: %s", operation).isLessThan(FAIL_WITHIN);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
