/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.consul;

import io.hybris.testkit.ConsulTestAgent;
import io.hybris.MetadataStoreException;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.VersionedValue;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Consul agent with ACLs on ({@code default_policy = "deny"}) and a known management token: a wrong token, no
 * token and a read-only token are each denied with a {@link MetadataStoreException} that names the token option
 * (never the token), and nothing is written. (The token from the environment: {@link ConsulConfiguredClientTest}.)
 */
class ConsulAclTest {
    private static final String PREFIX = "hybris.rmds.consul.";
    /** The management token of {@link #agentWithAcls()}. */
    static final String MANAGEMENT = "5d3b1b8e-0f6a-4c59-9d7e-3e0c9f1a2b4c";
    private static final String WRONG = "00000000-1111-2222-3333-444444444444";
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static ConsulTestAgent agent;
    private static String readOnlyToken;

    /** A dev agent with ACLs on, {@code default_policy = "deny"} and the {@link #MANAGEMENT} token. */
    static ConsulTestAgent agentWithAcls() {
        return ConsulTestAgent.dev("""
                acl {
                  enabled = true
                  default_policy = "deny"
                  tokens {
                    initial_management = "%s"
                  }
                }
                """.formatted(MANAGEMENT));
    }

    @BeforeAll
    static void startAgentWithAcls() {
        agent = agentWithAcls();
        ConsulHttp asManagement = new ConsulHttp(agent.address(), MANAGEMENT);
        asManagement.putJson("/v1/acl/policy", """
                {"Name": "hybris-read-only", "Rules": "key_prefix \\"\\" { policy = \\"read\\" }"}""");
        String token = asManagement.putJson("/v1/acl/token", """
                {"Description": "read-only", "Policies": [{"Name": "hybris-read-only"}]}""");
        Matcher m = Pattern.compile("\"SecretID\"\\s*:\\s*\"([^\"]+)\"").matcher(token);
        assertThat(m.find()).as("SecretID in %s", token).isTrue();
        readOnlyToken = m.group(1);
    }

    @AfterAll
    static void stopAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void wrongTokenIsDeniedOnEveryCallNamingTheTokenOptionButNotTheToken() throws Exception {
        String prefix = uniquePrefix();
        MetadataKey k = new MetadataKey("photos", "cat.jpg");
        try (MetadataStore owner = store(prefix, MANAGEMENT); MetadataStore wrong = store(prefix, WRONG)) {
            owner.conditionalUpdate(new MetadataUpdate(k, bytes("owner's"), MetadataVersion.ABSENT));
            VersionedValue written = owner.read(k).orElseThrow();

            assertDeniedEverywhere(wrong, k, written, "sends the token set in " + PREFIX + "token", WRONG);

            VersionedValue after = owner.read(k).orElseThrow();
            assertThat(after.value()).isEqualTo(bytes("owner's"));
            assertThat(after.version()).isEqualTo(written.version());
            assertThat(owner.list("photos", "", null, 10).entries()).hasSize(1);
        }
    }

    @Test
    void noTokenIsDeniedSayingTheTokenIsNotSet() throws Exception {
        String prefix = uniquePrefix();
        MetadataKey k = new MetadataKey("photos", "cat.jpg");
        try (MetadataStore owner = store(prefix, MANAGEMENT); MetadataStore anonymous = store(prefix, null)) {
            owner.conditionalUpdate(new MetadataUpdate(k, bytes("owner's"), MetadataVersion.ABSENT));
            VersionedValue written = owner.read(k).orElseThrow();

            assertDeniedEverywhere(anonymous, k, written, "sends no token (" + PREFIX + "token is not set)",
                    MANAGEMENT);
            assertThat(owner.read(k).orElseThrow().version()).isEqualTo(written.version());
        }
    }

    @Test
    void readOnlyTokenReadsButEveryWriteIsDenied() throws Exception {
        String prefix = uniquePrefix();
        MetadataKey a = new MetadataKey("docs", "a");
        MetadataKey b = new MetadataKey("docs", "b");
        try (MetadataStore owner = store(prefix, MANAGEMENT); MetadataStore reader = store(prefix, readOnlyToken)) {
            owner.conditionalUpdate(new MetadataUpdate(a, bytes("a1"), MetadataVersion.ABSENT));
            owner.conditionalUpdate(new MetadataUpdate(b, bytes("b1"), MetadataVersion.ABSENT));
            VersionedValue va = reader.read(a).orElseThrow();
            assertThat(va.value()).isEqualTo(bytes("a1"));
            assertThat(reader.list("docs", "", null, 10).entries()).hasSize(2);
            assertThat(reader.containers()).containsExactly("docs");

            assertDenied(() -> reader.conditionalUpdate(new MetadataUpdate(a, bytes("a2"), va.version())),
                    "conditional update of docs/a", "sends the token set in " + PREFIX + "token", readOnlyToken);
            // a transaction reports the denial per operation (HTTP 409 "Permission denied"), not as HTTP 403
            assertDenied(() -> reader.conditionalUpdateAll(List.of(
                    new MetadataUpdate(a, bytes("a2"), va.version()),
                    new MetadataUpdate(new MetadataKey("docs", "c"), bytes("c1"), MetadataVersion.ABSENT))),
                    "atomic update of 2 keys", "Permission denied", readOnlyToken);

            assertThat(owner.read(a).orElseThrow()).satisfies(v -> {
                assertThat(v.value()).isEqualTo(bytes("a1"));
                assertThat(v.version()).isEqualTo(va.version());
            });
            assertThat(owner.read(new MetadataKey("docs", "c"))).isEmpty();
        }
    }

    // the token from the environment through the configuration: in ConsulConfiguredClientTest

    private static void assertDeniedEverywhere(MetadataStore store, MetadataKey k, VersionedValue current,
                                               String identity, String secret) {
        assertDenied(() -> store.read(k), "read of photos/cat.jpg", identity, secret);
        assertDenied(() -> store.readAndWatch(k, () -> { }), "read of photos/cat.jpg", identity, secret);
        assertDenied(() -> store.conditionalUpdate(new MetadataUpdate(k, bytes("evil"), current.version())),
                "conditional update of photos/cat.jpg", identity, secret);
        assertDenied(() -> store.conditionalUpdate(new MetadataUpdate(new MetadataKey("photos", "new"),
                bytes("evil"), MetadataVersion.ABSENT)), "conditional update of photos/new", identity, secret);
        assertDenied(() -> store.conditionalUpdateAll(List.of(
                new MetadataUpdate(k, bytes("evil"), current.version()),
                new MetadataUpdate(new MetadataKey("photos", "new"), bytes("evil"), MetadataVersion.ABSENT))),
                "atomic update of 2 keys", identity, secret);
        assertDenied(() -> store.list("photos", "", null, 10), "list of container photos", identity, secret);
        assertDenied(store::containers, "list containers", identity, secret);
    }

    private static void assertDenied(ThrowingCallable call, String operation, String detail, String secret) {
        assertThatThrownBy(call)
                .isExactlyInstanceOf(MetadataStoreException.class)
                .hasMessageContaining(operation)
                .hasMessageContaining("denied by the Consul ACL")
                .hasMessageContaining(PREFIX + "token")
                .hasMessageContaining(detail)
                .hasMessageNotContaining(secret);
    }

    private static MetadataStore store(String prefix, String token) {
        Map<String, String> o = new HashMap<>(Map.of("address", agent.address(), "key-prefix", prefix,
                "operation-timeout", "3s"));
        if (token != null) {
            o.put("token", token);
        }
        return new ConsulMetadataStoreProvider().create(new ProviderOptions(PREFIX, o));
    }

    private static String uniquePrefix() {
        return "acl-test-" + PREFIXES.incrementAndGet();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
