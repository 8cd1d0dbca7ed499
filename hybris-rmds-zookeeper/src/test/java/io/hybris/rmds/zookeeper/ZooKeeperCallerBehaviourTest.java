package io.hybris.rmds.zookeeper;

import io.hybris.spi.MetadataStore;
import io.hybris.testkit.CallerBehaviourContract;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.concurrent.atomic.AtomicInteger;

/** Threads sharing a client, interrupts and close() mid-call, over a real (in-process) ZooKeeper server. */
class ZooKeeperCallerBehaviourTest extends CallerBehaviourContract {
    private static TestingServer server;
    private static final AtomicInteger ROOTS = new AtomicInteger();

    @BeforeAll
    static void startServer() throws Exception {
        server = new TestingServer(true);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Override
    protected MetadataStore newMetadataStore() {
        return ZooKeeperMetadataStore.builder()
                .connect(server.getConnectString())
                .root("/callers-" + ROOTS.incrementAndGet())
                .build();
    }
}
