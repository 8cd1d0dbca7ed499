/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.CallInterruptedException;
import io.hybris.HybrisException;
import io.hybris.HybrisListener;
import io.hybris.HybrisListener.CloudOperation;
import io.hybris.HybrisListener.Outcome;
import io.hybris.internal.LatencyRanking.Op;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.support.AbortSignal;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;

/**
 * One cloud GET of a read race, judged against the metadata: the bytes are hashed and counted while they arrive
 * (cut at the expected length), a missing, oversized or corrupt answer is an error, and the outcome is reported to
 * the listener, the latency to the ranking and a hash failure to the quarantine. A request this client abandoned
 * (its race aborted it, or its thread was interrupted) says nothing about the cloud's latency; its whole answer is
 * still judged, and one cut short by the abort is reported cancelled. A request started before its hash was known
 * ({@link LateHash}) is judged once the hash is; if the guess behind it was wrong it is reported cancelled.
 */
final class VerifiedGet {
    private final LatencyRanking ranking;
    private final Quarantine quarantine;
    private final HybrisListener listener;

    VerifiedGet(LatencyRanking ranking, Quarantine quarantine, HybrisListener listener) {
        this.ranking = ranking;
        this.quarantine = quarantine;
        this.listener = listener;
    }

    /** Fetches {@code objectKey} from {@code cloud} and returns its verified bytes; throws on any other answer. */
    byte[] fetch(CloudStore cloud, String cloudId, String objectKey, CloudCalls.Expected expected) {
        long length = expected.length();
            long t0 = System.nanoTime();
            Optional<byte[]> got;
            Arrival arrived = new Arrival(); // hashed and counted while the bytes arrive
            try {
                got = cloud.get(objectKey, length, arrived);
            } catch (OversizedObjectException e) {
                if (expected.late() != null && expected.late().await() == null) {
                    // more than a wrong guess of the length allowed: not the cloud's fault
                    report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, t0, arrived.bytes,
                            cancelled(objectKey, cloudId, e));
                    throw e;
                }
                ranking.recordError(cloudId, Op.READ, length, e);
                quarantine.hashFailed(cloudId);
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.OVERSIZED, t0, arrived.bytes, e);
                throw e;
            } catch (RuntimeException e) {
                if (abandonedByThisClient()) {
                    // cancelled by this client (the race was abandoned, the caller interrupted, or a stream closed
                    // before the chunks read ahead arrived): that says nothing about the cloud, so no penalty —
                    // a penalty would rank the fastest cloud last after every early close of a stream. The request
                    // still ended, and is reported as cancelled (its abandonment was reported when it happened)
                    report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, t0, arrived.bytes,
                            cancelled(objectKey, cloudId, e));
                    throw e;
                }
                ranking.recordError(cloudId, Op.READ, length, e);
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, t0, arrived.bytes, e);
                throw e;
            }
            byte[] want = expected.sha256();
            if (want == null) {
                long waitedFrom = System.nanoTime();
                want = expected.late().await();
                t0 += System.nanoTime() - waitedFrom; // the request's latency leaves out the wait for its hash
            }
            if (want == null) {
                // started before its hash was known, and the guess behind it was wrong (or its owner gave it up):
                // the answer (or the cloud's lack of the object the guess named) is not wanted, which says nothing
                // about the cloud — not a corrupt answer, nor a lost copy
                CallInterruptedException unwanted = cancelled(objectKey, cloudId, null);
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, t0, arrived.bytes, unwanted);
                throw unwanted;
            }
            if (got.isEmpty()) {
                CloudValueException missing = new CloudValueException(cloudId + " has no " + expected.what());
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.NOT_FOUND, t0, 0, missing);
                throw missing;
            }
            byte[] value = got.get();
            boolean abandoned = abandonedByThisClient();
            if (abandoned && (value.length != length || arrived.bytes != length)) {
                // aborted here, the stream may have ended early and the driver returned what it had: not the
                // cloud's fault, so neither a corrupt answer (which would count toward quarantine) nor a sample
                CallInterruptedException cancelled = cancelled(objectKey, cloudId, null);
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.ERROR, t0, arrived.bytes, cancelled);
                throw cancelled;
            }
            // a whole answer is judged whether or not this client still waits for it; an abandoned one leaves the
            // latency ranking alone (its race already recorded what it needed), but a corrupt one is corrupt
            if (value.length != length || !Hashing.matches(want, arrived.sha256.digest())) {
                CloudValueException corrupt = new CloudValueException(cloudId + " returned " + value.length
                        + " bytes for " + expected.what() + " that do not match the metadata hash");
                if (!abandoned) {
                    ranking.recordError(cloudId, Op.READ, length, corrupt);
                }
                quarantine.hashFailed(cloudId);
                report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.CORRUPT, t0, value.length, corrupt);
                throw corrupt;
            }
            if (!abandoned) {
                ranking.recordSuccess(cloudId, Op.READ, length, System.nanoTime() - t0);
            }
            report(listener, cloudId, CloudOperation.GET, objectKey, Outcome.OK, t0, value.length, null);
            return value;
    }

    /**
     * Whether this client abandoned the request running on this thread: its race aborted it (which comes before
     * the interrupt) or interrupted it. Its failure or short answer says nothing about the cloud.
     */
    private static boolean abandonedByThisClient() {
        AbortSignal signal = AbortSignal.current();
        return Thread.currentThread().isInterrupted() || (signal != null && signal.isAborted());
    }

    private static CallInterruptedException cancelled(String objectKey, String cloudId, Throwable cause) {
        return new CallInterruptedException("get of '" + objectKey + "' from " + cloudId + " abandoned", false,
                cause);
    }

    /** Reports one cloud request, sent at {@code t0} ({@link System#nanoTime()}), to {@code listener}. */
    static void report(HybrisListener listener, String cloudId, CloudOperation op, String objectKey, Outcome outcome,
                       long t0, long bytes, Throwable failure) {
        listener.cloudRequest(new HybrisListener.CloudRequest(cloudId, op, objectKey, outcome,
                Duration.ofNanos(System.nanoTime() - t0), bytes, failure));
    }

    /** Hashes the bytes of a GET while they arrive, and counts them (the bytes in, also of a failed download). */
    private static final class Arrival implements ByteConsumer {
        final MessageDigest sha256 = Hashing.newSha256();
        long bytes;

        @Override
        public void accept(byte[] b, int offset, int length) {
            sha256.update(b, offset, length);
            bytes += length;
        }
    }

    /** A cloud answered, but not with the value the metadata describes. */
    static final class CloudValueException extends HybrisException {
        private static final long serialVersionUID = 1L;

        CloudValueException(String message) {
            super(message);
        }
    }
}
