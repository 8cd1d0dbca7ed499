/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.MetadataUnavailableException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Updates a store re-sent after losing the answer to an earlier send, which then conflict with a newer write.
 *
 * <p>TPUT: a store that retries a multi-key update after losing its answer sees a version conflict caused by its
 * own first attempt; if a newer write replaced one of the keys meanwhile, the transaction still committed (it is
 * atomic): TPUT must succeed and keep its copies, not report "nothing was written" and delete a value that is
 * current. If newer writes replaced every key, whether it landed cannot be told: its outcome is unknown, never
 * "aborted".
 *
 * <p>DELETE: a DELETE whose store re-sent its update after losing the answer, and found a newer write in place,
 * cannot tell whether its tombstone landed before that write: claiming it deleted the value it read may be false
 * (another deletion may have), and deleting the newer value as well would be a second effect. Its outcome is
 * unknown, and the newer write stays.
 *
 * <p>PUT: a PUT whose store re-sent its update after losing the answer, and found a newer conditional write in
 * place, cannot tell whether its update landed before that write: if it did not, it cannot be ordered just before a
 * write whose precondition required the version it read, and putting again would be a second effect if it did. Its
 * outcome is unknown, and the newer write stays. Meeting a newer unconditional write, it is complete, as before.
 */
class ResentUpdateOutcomeTest {
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

    @Test
    void aTransactionWhoseKeysAllHoldNewerWritesAfterAReSentUpdateHasAnUnknownOutcome() {
        try (Hybris newer = open(metadata, "other")) {
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, true, () -> {
                newer.put("box", "a", bytes("newer-a"));
                newer.put("box", "b", bytes("newer-b"));
            }), "tx")) {
                assertThatThrownBy(() -> h.tput("box", Map.of("a", bytes("tx-a"), "b", bytes("tx-b"))))
                        .isInstanceOf(MetadataUnavailableException.class).hasMessageContaining("outcome is unknown");
            }
            assertThat(newer.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-a")));
            assertThat(newer.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer-b")));
        }
    }

    @Test
    void aTransactionThatLandedBeforeAConflictIsReportedAsCommittedAndKeepsItsValues() {
        try (Hybris newer = open(metadata, "other")) {
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, true, () -> newer.put("box", "b", bytes("newer"))),
                    "tx")) {
                // the overwritten key first (TputConflictOutcomeTest has it last): Map.of's order changed per JVM
                Map<String, byte[]> values = new java.util.LinkedHashMap<>();
                values.put("b", bytes("tx-b"));
                values.put("a", bytes("tx-a"));
                h.tput("box", values); // must not throw
            }
            assertThat(newer.get("box", "a")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("tx-a")));
            assertThat(newer.get("box", "b")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
        }
    }

    private void deleteMeetingANewerValue(boolean landed) {
        try (Hybris other = open(metadata, "other")) {
            other.put("box", "k", bytes("old"));
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, landed, () -> other.put("box", "k",
                    bytes("newer"))), "deleter")) {
                assertThatThrownBy(() -> h.delete("box", "k")).isInstanceOf(MetadataUnavailableException.class)
                        .hasMessageContaining("deletion of").hasMessageContaining("outcome is unknown");
            }
            assertThat(other.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
            assertThat(other.changes("box", "", io.hybris.ChangeCursor.BEGINNING, 10).changes())
                    .as("old, the deletion if it landed, newer").hasSize(landed ? 3 : 2);
        }
    }

    @Test
    void aDeletionWhoseTombstoneLandedBeforeANewerWriteHasAnUnknownOutcome() {
        deleteMeetingANewerValue(true);
    }

    @Test
    void aDeletionWhoseReSentUpdateMayHaveLandedHasAnUnknownOutcomeEvenIfItDidNot() {
        deleteMeetingANewerValue(false);
    }

    @Test
    void aDeletionWhoseReSentUpdateMetANewerDeletionHasAnUnknownOutcome() {
        try (Hybris other = open(metadata, "other")) {
            other.put("box", "k", bytes("old"));
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, false, () -> {
                other.put("box", "k", bytes("newer"));
                other.delete("box", "k");
            }), "deleter")) {
                assertThatThrownBy(() -> h.delete("box", "k")).isInstanceOf(MetadataUnavailableException.class)
                        .hasMessageContaining("outcome is unknown");
            }
            assertThat(other.get("box", "k")).isEmpty();
        }
    }

    /** "a-putter" puts while "z-other" writes, ifMatch the version current, or without a precondition. */
    private VersionInfo putMeetingANewerWrite(boolean landed, boolean conditional) {
        try (Hybris other = open(metadata, "z-other")) {
            other.put("box", "k", bytes("old"));
            Runnable newer = () -> other.put("box", "k", bytes("newer"), conditional
                    ? PutOptions.ifMatch(other.describe("box", "k").orElseThrow().version()) : PutOptions.none());
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, landed, newer), "a-putter")) {
                VersionInfo put = conditional ? null : h.put("box", "k", bytes("mine"));
                if (conditional) {
                    assertThatThrownBy(() -> h.put("box", "k", bytes("mine")))
                            .isInstanceOf(MetadataUnavailableException.class)
                            .hasMessageContaining("outcome is unknown");
                }
                assertThat(other.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
                assertThat(other.changes("box", "", io.hybris.ChangeCursor.BEGINNING, 10).changes())
                        .as("old, the put if it landed, newer").hasSize(landed ? 3 : 2);
                return put;
            }
        }
    }

    @Test
    void aPutWhoseUpdateLandedBeforeANewerConditionalWriteHasAnUnknownOutcome() {
        assertThat(putMeetingANewerWrite(true, true)).isNull();
    }

    @Test
    void aPutWhoseReSentUpdateMayHaveLandedBeforeAConditionalWriteHasAnUnknownOutcomeEvenIfItDidNot() {
        assertThat(putMeetingANewerWrite(false, true)).isNull();
    }

    @Test
    void aPutWhoseReSentUpdateMetANewerUnconditionalWriteIsComplete() {
        assertThat(putMeetingANewerWrite(false, false)).satisfies(v -> assertThat(v.version()).startsWith("2_"));
    }

    @Test
    void aPutWhoseUpdateLandedBeforeANewerUnconditionalWriteIsComplete() {
        assertThat(putMeetingANewerWrite(true, false)).satisfies(v -> assertThat(v.version()).startsWith("2_"));
    }

    /**
     * A write ifMatch whose re-sent update meets a newer write: its first send may have landed (here it did) and been
     * overwritten, so failing its precondition ("nothing was committed") would be a lie: its outcome is unknown.
     */
    @Test
    void aConditionalPutWhoseReSentUpdateMetANewerWriteHasAnUnknownOutcomeNotAFailedPrecondition() {
        try (Hybris other = open(metadata, "z-other")) {
            VersionInfo base = other.put("box", "k", bytes("old"));
            try (Hybris h = open(new ResentAfterLostAnswer(metadata, true, () -> other.put("box", "k",
                    bytes("newer"))), "a-putter")) {
                assertThatThrownBy(() -> h.put("box", "k", bytes("mine"), PutOptions.ifMatch(base.version())))
                        .isInstanceOf(MetadataUnavailableException.class)
                        .isNotInstanceOf(io.hybris.PreconditionFailedException.class)
                        .hasMessageContaining("outcome is unknown");
            }
            assertThat(other.get("box", "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("newer")));
            assertThat(other.changes("box", "", io.hybris.ChangeCursor.BEGINNING, 10).changes())
                    .as("old, the conditional put that landed, newer").hasSize(3);
        }
    }
}
