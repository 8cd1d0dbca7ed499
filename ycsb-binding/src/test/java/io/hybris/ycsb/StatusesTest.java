/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import io.hybris.DeadlineExceededException;
import io.hybris.InvalidRequestException;
import io.hybris.MetadataUnavailableException;
import io.hybris.NotEnoughCloudsException;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/ycsb.md's status table, one failure at a time (a metadata outage is hard to provoke end to end). */
class StatusesTest {
    @Test
    void eachFailureMapsToItsDocumentedStatus() {
        assertThat(Statuses.of(new MetadataUnavailableException("zk down"))).isEqualTo(Status.SERVICE_UNAVAILABLE);
        assertThat(Statuses.of(new CompletionException(new MetadataUnavailableException("zk down"))))
                .isEqualTo(Status.SERVICE_UNAVAILABLE);
        assertThat(Statuses.of(new NotEnoughCloudsException("1 of 2"))).isEqualTo(Status.SERVICE_UNAVAILABLE);
        assertThat(Statuses.of(new InvalidRequestException("bad key"))).isEqualTo(Status.BAD_REQUEST);
        assertThat(Statuses.of(new RecordFormatException("not a record"))).isEqualTo(Status.ERROR);
        assertThat(Statuses.of(new IllegalStateException("other"))).isEqualTo(Status.ERROR);
    }
}
