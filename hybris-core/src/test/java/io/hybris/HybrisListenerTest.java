/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.CloudRequest;
import io.hybris.HybrisListener.FailureKind;
import io.hybris.HybrisListener.GcCause;
import io.hybris.HybrisListener.OperationOutcome;
import io.hybris.HybrisListener.Outcome;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HybrisListenerTest {

    private static FailureKind kind(Outcome outcome, Throwable failure) {
        return new CloudRequest("c0", CloudOperation.GET, "k", outcome, Duration.ZERO, 0, failure).failureKind();
    }

    @Test
    void failureKindsFollowTheOutcomeAndTheException() {
        assertThat(kind(Outcome.OK, null)).isNull();
        assertThat(kind(Outcome.ABANDONED, null)).isNull();
        assertThat(kind(Outcome.CORRUPT, null)).isEqualTo(FailureKind.CORRUPT);
        assertThat(kind(Outcome.NOT_FOUND, null)).isEqualTo(FailureKind.NOT_FOUND);
        assertThat(kind(Outcome.OVERSIZED, new OversizedObjectException("c0", "k", 1)))
                .isEqualTo(FailureKind.OVERSIZED);
        assertThat(kind(Outcome.ERROR, new TransientCloudException("c0", "503"))).isEqualTo(FailureKind.UNAVAILABLE);
        assertThat(kind(Outcome.ERROR, new TransientCloudException("c0", "slow", new SocketTimeoutException("read"))))
                .isEqualTo(FailureKind.TIMEOUT);
        assertThat(kind(Outcome.ERROR, new PermanentCloudException("c0", "403"))).isEqualTo(FailureKind.REJECTED);
        assertThat(kind(Outcome.ERROR, new TransientCloudException("c0", "x", new InterruptedException())))
                .isEqualTo(FailureKind.CANCELLED);
        assertThat(kind(Outcome.ERROR, new RuntimeException(new InterruptedIOException())))
                .isEqualTo(FailureKind.CANCELLED);
        assertThat(kind(Outcome.ERROR, new IllegalStateException("bug"))).isEqualTo(FailureKind.ERROR);
        assertThat(kind(Outcome.ERROR, null)).isEqualTo(FailureKind.ERROR);
    }

    @Test
    void operationOutcomesFollowTheException() {
        assertThat(OperationOutcome.of(new DeadlineExceededException("x"))).isEqualTo(OperationOutcome.DEADLINE_EXCEEDED);
        assertThat(OperationOutcome.of(new ValueTooLargeException("x", 1))).isEqualTo(OperationOutcome.INVALID);
        assertThat(OperationOutcome.of(new TransactionAbortedException("x"))).isEqualTo(OperationOutcome.ABORTED);
        assertThat(OperationOutcome.of(new PutOvertakenException("x", "k", null))).isEqualTo(OperationOutcome.ABORTED);
        assertThat(OperationOutcome.of(new PreconditionFailedException("x", "k", null)))
                .isEqualTo(OperationOutcome.PRECONDITION_FAILED);
        assertThat(OperationOutcome.of(new MetadataUnavailableException("x")))
                .isEqualTo(OperationOutcome.METADATA_ERROR);
        assertThat(OperationOutcome.of(new IllegalStateException())).isEqualTo(OperationOutcome.ERROR);
    }

    @Test
    void aCompositeDeliversToEveryListenerAndTheOlderEventsStillArrive() {
        List<String> seen = new ArrayList<>();
        HybrisListener old = new HybrisListener() {
            @Override
            public void cloudOperation(String cloudId, CloudOperation op, String key, Outcome outcome, Duration d) {
                seen.add("old " + op + " " + outcome);
            }

            @Override
            public void garbageCollected(String cloudId, String objectKey) {
                seen.add("old gc " + cloudId);
            }
        };
        HybrisListener throwing = new HybrisListener() {
            @Override
            public void cloudRequest(CloudRequest request) {
                throw new IllegalStateException("listener bug");
            }
        };
        HybrisListener both = HybrisListener.of(throwing, old);
        assertThatThrownBy(() -> both.cloudRequest(new CloudRequest("c0", CloudOperation.PUT, "k", Outcome.OK,
                Duration.ZERO, 3, null))).hasMessage("listener bug");
        both.garbageCollected("c1", "k", GcCause.SWEEP);
        assertThat(seen).containsExactly("old PUT OK", "old gc c1");
    }
}
