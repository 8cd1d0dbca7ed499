/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisException;
import io.hybris.NotEnoughCloudsException;

import java.util.List;
import java.util.Map;

/**
 * Full replication (paper §3.2-§3.3): a version is stored whole on the {@code f+1} clouds ranked fastest for its
 * size, and read from the fastest listed cloud whose copy matches the metadata hash. Immutable.
 */
final class ReplicatedLayout implements Layout {
    private final CloudCalls calls;
    private final int f;

    ReplicatedLayout(CloudCalls calls, int f) {
        this.calls = calls;
        this.f = f;
    }

    @Override
    public Placement store(String objectKey, byte[] stored, Deadline d) {
        return store(objectKey, stored, d, false);
    }

    /**
     * {@link #store(String, byte[], Deadline)}, under a name another attempt of the same write may store too when
     * {@code sharedName} (the manifest of an upload in parts): a copy landing late is then left to the sweep.
     */
    Placement store(String objectKey, byte[] stored, Deadline d, boolean sharedName) {
        int needed = f + 1;
        List<List<String>> holders = calls.write(objectKey, new byte[][] {stored}, needed, stored.length, d,
                new CloudCalls.WriteFailures() {
                    @Override
                    public HybrisException notEnoughClouds(List<List<String>> acked, int failed) {
                        return new NotEnoughCloudsException("put of '" + objectKey + "' needs " + needed
                                + " clouds (f=" + f + ") but only " + acked.get(0).size() + " of "
                                + calls.cloudOrder().size() + " stored it (" + acked.get(0) + "); " + failed
                                + " failed, see suppressed exceptions");
                    }

                    @Override
                    public String deadlineMissed(List<List<String>> acked, List<String> stillRunning) {
                        return "put of '" + objectKey + "' did not reach " + needed + " clouds within " + d.budget()
                                + "; acknowledged by " + acked.get(0) + ", still waiting for " + stillRunning;
                    }
                }, sharedName);
        return new Placement(holders.get(0), null);
    }

    @Override
    public byte[] read(String objectKey, Metadata meta, Deadline d, List<Throwable> failures) {
        return finishRead(startRead(objectKey, meta, d), d, failures);
    }

    @Override
    public PendingRead startRead(String objectKey, Metadata meta, Deadline d) {
        return calls.startRead(objectKey, configured(objectKey, meta), 1, meta.size(),
                cloud -> expected(objectKey, meta), "no copy matching the metadata hash", d);
    }

    @Override
    public byte[] finishRead(PendingRead started, Deadline d, List<Throwable> failures) {
        Map<String, byte[]> got = calls.finishRead(started, d, failures);
        return got == null ? null : got.values().iterator().next();
    }

    @Override
    public byte[] readRound(Race<byte[]> race, Race.Signal changed, String objectKey, Metadata meta, Deadline d,
                            List<Throwable> failures) throws InterruptedException {
        Map<String, byte[]> got = calls.readRound(race, changed, objectKey, configured(objectKey, meta), 1,
                cloud -> expected(objectKey, meta), "no copy matching the metadata hash", d, failures);
        return got == null ? null : got.values().iterator().next();
    }

    private static CloudCalls.Expected expected(String objectKey, Metadata meta) {
        return new CloudCalls.Expected(meta.size(), meta.sha256(), objectKey, CloudCalls.Expected.WHOLE);
    }

    /** The listed clouds this client has configured; fails if there are none. */
    private List<String> configured(String objectKey, Metadata meta) {
        List<String> listed = meta.clouds();
        int configured = 0;
        for (String id : listed) {
            configured += calls.configured(id) ? 1 : 0;
        }
        if (configured == listed.size()) {
            return listed; // every read asks this: the common case copies nothing
        }
        List<String> known = listed.stream().filter(calls::configured).toList();
        if (known.isEmpty()) {
            throw new HybrisException("'" + objectKey + "' is stored on clouds " + meta.clouds() + ", none of which"
                    + " this client has configured (configured: " + calls.cloudOrder() + ")");
        }
        return known;
    }
}
