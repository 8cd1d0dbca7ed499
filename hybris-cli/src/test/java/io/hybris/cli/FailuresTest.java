/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.DeadlineExceededException;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOvertakenException;
import io.hybris.TransactionAbortedException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The exit code of each kind of failure a command meets (docs/cli.md, "Exit codes"). */
class FailuresTest {
    @Test
    void everyConflictExitsFive() {
        assertThat(Failures.exitCode(new PreconditionFailedException("if-match", "k", null)))
                .isEqualTo(ExitCode.CONFLICT);
        assertThat(Failures.exitCode(new TransactionAbortedException("aborted"))).isEqualTo(ExitCode.CONFLICT);
        assertThat(Failures.exitCode(new PutOvertakenException("put of k was overtaken; put again", "k", null)))
                .as("a streamed put overtaken by a conditional write or deletion: nothing stored, put again")
                .isEqualTo(ExitCode.CONFLICT);
        assertThat(Failures.message(new PutOvertakenException("put of k was overtaken; put again", "k", null)))
                .contains("put again");
    }

    @Test
    void aDeadlineIsUnavailableNotAConflict() {
        assertThat(Failures.exitCode(new DeadlineExceededException("late"))).isEqualTo(ExitCode.UNAVAILABLE);
    }
}
