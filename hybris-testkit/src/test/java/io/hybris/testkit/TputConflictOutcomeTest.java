/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.TransactionAbortedException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * How a TPUT reads a version conflict of its multi-key update, with the keys in a fixed order (a
 * {@code LinkedHashMap}: {@code Map.of}'s order changes from one JVM to the next, so a rule that depended on which
 * key is looked at last would pass or fail by chance):
 *
 * <ul>
 *   <li>the update landed (its first send applied, the store re-sent it and met itself) and a newer write then
 *       replaced the <em>last</em> key: still committed — its identity on any one key proves the whole transaction
 *       landed;</li>
 *   <li>the update did not land, the store reports it may have, and a newer write replaced only some keys: the keys
 *       without a newer write do not hold the transaction, so it did not land — aborted, nothing visible, never an
 *       unknown outcome.</li>
 * </ul>
 * And a TPUT one of whose values cannot be uploaded fails before its metadata update, deleting the uploads of its
 * other values (never visible, so nothing else would ever delete them but the sweep); and one larger than the
 * metadata store updates atomically is refused before anything is uploaded.
 */
class TputConflictOutcomeTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private final InMemoryMetadataStore metadata = new InMemoryMetadataStore();
    private final List<CloudStore> clouds = List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"),
            new InMemoryCloudStore("c2"));

    private Hybris open(MetadataStore store, String id) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).clientId(id)
                .deadline(Duration.ofSeconds(10));
        clouds.forEach(b::cloud);
        return Hybris.open(b.build());
    }

    private static Map<String, byte[]> inOrder(String... keyAndValue) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < keyAndValue.length; i += 2) {
            m.put(keyAndValue[i], bytes(keyAndValue[i + 1]));
        }
        return m;
    }

    private long objectsOf(String client) {
        return clouds.stream().mapToLong(c -> c.list("").stream().filter(o -> o.key().contains("_" + client + "."))
                .count()).sum();
    }

    /** A cloud that refuses every put of an object whose name contains {@code fragment}. */
    private static final class RefusingPuts extends ForwardingCloudStore {
        private final String fragment;

        RefusingPuts(CloudStore delegate, String fragment) {
            super(delegate);
            this.fragment = fragment;
        }

        @Override
        public void put(String objectKey, byte[] value) {
            if (objectKey.contains(fragment)) {
                throw new IllegalStateException("put refused (injected)");
            }
            super.put(objectKey, value);
        }
    }

    @Test
    void aTransactionOneOfWhoseUploadsFailsDeletesTheUploadsThatSucceeded() {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(metadata).clientId("tx")
                .deadline(Duration.ofSeconds(10));
        clouds.forEach(c -> b.cloud(new RefusingPuts(c, "refused-key")));
        try (Hybris h = Hybris.open(b.build()); Hybris reader = open(metadata, "other")) {
            assertThatThrownBy(() -> h.tput("box", inOrder("stored-key", "v1", "refused-key", "v2")))
                    .isInstanceOf(io.hybris.HybrisException.class);
            assertThat(reader.get("box", "stored-key")).isEmpty();
            assertThat(reader.get("box", "refused-key")).isEmpty();
            await().atMost(Duration.ofSeconds(30)).until(() -> objectsOf("tx") == 0); // stored-key's copies deleted
        }
    }

    @Test
    void aTransactionLargerThanTheStoreUpdatesAtomicallyIsRefusedBeforeAnyUpload() {
        MetadataStore small = new ForwardingMetadataStore(metadata) {
            @Override
            public int maxAtomicUpdates() {
                return 2;
            }
        };
        try (Hybris h = open(small, "tx")) {
            assertThatThrownBy(() -> h.tput("box", inOrder("a", "1", "b", "2", "c", "3")))
                    .isInstanceOf(io.hybris.InvalidRequestException.class)
                    .hasMessageContaining("exceeds the maximum of 2");
            h.tput("box", inOrder("a", "1", "b", "2"));
            assertThat(h.get("box", "c")).isEmpty();
        }
        assertThat(objectsOf("tx")).as("only the two-key transaction's copies").isEqualTo(4);
    }

    @Test
    void aTransactionThatLandedIsCommittedWhenANewerWriteReplacedTheLastKey() {
        try (Hybris newer = open(metadata, "other")) {
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, true,
                    () -> newer.put("box", "c", bytes("newer-c"))), "tx")) {
                h.tput("box", inOrder("a", "tx-a", "b", "tx-b", "c", "tx-c")); // must not throw
            }
            assertThat(newer.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("tx-a")));
            assertThat(newer.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("tx-b")));
            assertThat(newer.get("box", "c")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-c")));
        }
    }

    @Test
    void aTransactionThatDidNotLandAndMetANewerWriteOnSomeKeysIsAbortedNotUnknown() {
        try (Hybris newer = open(metadata, "other")) {
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, false, () -> {
                newer.put("box", "b", bytes("newer-b1"));
                newer.put("box", "b", bytes("newer-b2")); // sequence 2: after the transaction's 1
            }), "tx")) {
                assertThatThrownBy(() -> h.tput("box", inOrder("a", "tx-a", "b", "tx-b")))
                        .isInstanceOf(TransactionAbortedException.class).hasMessageContaining("[b]");
            }
            assertThat(newer.get("box", "a")).isEmpty();
            assertThat(newer.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-b2")));
            await().atMost(Duration.ofSeconds(30)).until(() -> objectsOf("tx") == 0); // its uploads deleted
        }
    }
}
