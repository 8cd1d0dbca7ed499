/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A read-only snapshot of what one client knows about one cloud: its place in the latency ranking, its latency
 * estimates for small values, and the errors its calls met. Returned by {@link Hybris#cloudStatus()}, fastest
 * cloud first; for an operator's view ({@code hybris clouds}), not for routing decisions, which Hybris makes per
 * call.
 *
 * <p>The estimates are the client's exponentially weighted moving averages of observed (or probed) latencies of
 * values below 64 KiB; they are empty until the cloud has been observed, and hold the failure penalty (twice the
 * cloud's timer) while the latest observation was a failure. {@link Hybris#refreshLatencyRanking()} measures every
 * cloud now.
 *
 * @param cloudId      the cloud's configured id
 * @param rank         1 for the cloud a small read goes to first, then 2, 3, ... (ties in configuration order)
 * @param readLatency  the read estimate for small values; empty before any observation
 * @param writeLatency the write estimate for small values; empty before any observation
 * @param failing      whether the latest read or write observation of a small value was a failure or a timer
 *                     expiry (the cloud then ranks behind clouds that answer until it is measured again)
 * @param errors       how many calls to the cloud failed (errors, corrupt or oversized answers, failed probes)
 *                     since the client opened; a timer expiry alone is not counted
 * @param lastError    one line describing the latest of those failures; empty if none
 * @param lastErrorAt  when it happened; empty if none
 * @param quarantined  how much longer the cloud stays in quarantine (it answered with bytes failing the hash check
 *                     {@code hybris.get.quarantine.after} times: every call asks it last); empty if it is not
 */
public record CloudStatus(String cloudId, int rank, Optional<Duration> readLatency, Optional<Duration> writeLatency,
                          boolean failing, long errors, Optional<String> lastError, Optional<Instant> lastErrorAt,
                          Optional<Duration> quarantined) {
    public CloudStatus {
        Objects.requireNonNull(cloudId, "cloudId");
        Objects.requireNonNull(readLatency, "readLatency");
        Objects.requireNonNull(writeLatency, "writeLatency");
        Objects.requireNonNull(lastError, "lastError");
        Objects.requireNonNull(lastErrorAt, "lastErrorAt");
        Objects.requireNonNull(quarantined, "quarantined");
    }
}
