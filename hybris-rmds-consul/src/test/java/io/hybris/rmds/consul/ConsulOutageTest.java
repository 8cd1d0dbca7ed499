package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.MetadataUnavailableException;
import io.hybris.spi.MetadataKey;
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
 * The agent dies (SIGKILL): calls fail fast and clearly, a pending watch fires conservatively, and after a restart
 * on the same data directory calls succeed again and nothing is lost. A single server with its data on disk
 * ({@code -bootstrap-expect=1}, not dev mode), so the restart brings the data back.
 */
class ConsulOutageTest {
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    /** Twice the documented worst case (operation-timeout plus one request's read timeout). */
    private static final Duration FAIL_WITHIN = OPERATION_TIMEOUT.plus(READ_TIMEOUT).multipliedBy(2);
    private static final MetadataKey KEY = new MetadataKey("photos", "cat.jpg");

    private ConsulTestAgent agent;
    private ConsulMetadataStore store;

    @BeforeEach
    void start() throws Exception {
        agent = ConsulTestAgent.persistentServer();
        store = ConsulMetadataStore.builder()
                .address(agent.address())
                .keyPrefix("outage")
                .connectTimeout(Duration.ofSeconds(1))
                .readTimeout(READ_TIMEOUT)
                .operationTimeout(OPERATION_TIMEOUT)
                .build();
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("before"), MetadataVersion.ABSENT));
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void withTheAgentDeadCallsFailFastAWatchFiresAndAfterRestartNothingIsLost() throws Exception {
        VersionedValue before = store.read(KEY).orElseThrow();
        AtomicInteger watchFired = new AtomicInteger();
        store.readAndWatch(KEY, watchFired::incrementAndGet);

        agent.kill();

        // the blocking query fails, its retries fail for operation-timeout, then it fires so the reader re-reads
        await().atMost(Duration.ofSeconds(15)).until(() -> watchFired.get() == 1);
        assertThat(store.activeWatches()).isZero();
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
        assertUnavailable(store::containers, "list containers");

        agent.restart();

        VersionedValue recovered = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(MetadataUnavailableException.class)
                .until(() -> store.read(KEY).orElse(null), v -> v != null);
        assertThat(recovered.value()).isEqualTo(bytes("before"));
        assertThat(recovered.version()).isEqualTo(before.version());
        store.conditionalUpdate(new MetadataUpdate(KEY, bytes("after"), recovered.version()));
        assertThat(store.read(KEY).orElseThrow().value()).isEqualTo(bytes("after"));
        assertThat(store.read(new MetadataKey("photos", "new"))).as("failed create left nothing").isEmpty();
        assertThat(watchFired).hasValue(1);
    }

    private static void assertUnavailable(ThrowingCallable call, String operation) {
        long t0 = System.nanoTime();
        assertThatThrownBy(call)
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining(operation)
                .hasMessageContaining("Consul unavailable")
                .hasMessageContaining("operation-timeout 1s");
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("time to fail: %s", operation).isLessThan(FAIL_WITHIN);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
