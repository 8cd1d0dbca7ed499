package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.CallerBehaviourContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.concurrent.atomic.AtomicInteger;

/** Threads sharing a client, interrupts and close() mid-call, over a real Consul dev agent. */
class ConsulCallerBehaviourTest extends CallerBehaviourContract {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static ConsulTestAgent agent;

    @BeforeAll
    static void startAgent() {
        agent = ConsulTestAgent.dev();
    }

    @AfterAll
    static void stopAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    @Override
    protected MetadataStore newMetadataStore() {
        return ConsulMetadataStore.builder()
                .address(agent.address())
                .keyPrefix("callers-" + PREFIXES.incrementAndGet())
                .build();
    }
}
