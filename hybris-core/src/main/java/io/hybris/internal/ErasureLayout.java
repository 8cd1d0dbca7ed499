/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.HybrisException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.spi.ErasureCoder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Erasure coding (paper §3.9): a version's stored bytes are encoded into {@code k} data and {@code f} parity
 * chunks, one chunk per cloud on the {@code k+f} clouds ranked fastest, under the version's object key (so garbage
 * collection and the orphan sweep treat chunks like replicas); a chunk whose cloud fails or whose timer expires
 * also goes to the next cloud (at most {@code 2f+k} clouds). A read fetches the {@code k} fastest chunks, checks
 * each against its SHA-256 in metadata and decodes; a chunk that is missing, corrupt, oversized or slow is
 * replaced by the next one. Immutable.
 */
final class ErasureLayout implements Layout {
    private final CloudCalls calls;
    private final ErasureCoders coders;
    private final int k;
    private final int f;

    ErasureLayout(CloudCalls calls, ErasureCoders coders, int k, int f) {
        this.calls = calls;
        this.coders = coders;
        this.k = k;
        this.f = f;
    }

    @Override
    public Placement store(String objectKey, byte[] stored, Deadline d) {
        ErasureCoder coder = coders.coder(k, f);
        byte[][] chunks = coder.encodeValue(stored);
        int n = chunks.length;
        List<byte[]> hashes = new ArrayList<>(n);
        for (byte[] chunk : chunks) {
            hashes.add(Hashing.sha256(chunk));
        }
        if (calls.cloudOrder().size() < n) {
            throw new NotEnoughCloudsException("put of '" + objectKey + "' needs " + n + " clouds (k=" + k + ", f="
                    + f + ") but " + calls.cloudOrder().size() + " are configured");
        }
        List<List<String>> holders = calls.write(objectKey, chunks, 1, coder.chunkLength(stored.length), d,
                new CloudCalls.WriteFailures() {
                    @Override
                    public HybrisException notEnoughClouds(List<List<String>> stored, int failed) {
                        return new NotEnoughCloudsException("put of '" + objectKey + "' needs its " + n
                                + " chunks (k=" + k + ", f=" + f + ") on " + n + " different clouds, but only "
                                + stored.stream().filter(h -> !h.isEmpty()).count() + " of "
                                + calls.cloudOrder().size() + " clouds stored one (" + stored + "); " + failed
                                + " failed, see suppressed exceptions");
                    }

                    @Override
                    public String deadlineMissed(List<List<String>> stored, List<String> stillRunning) {
                        return "put of '" + objectKey + "' did not store all " + n + " chunks within " + d.budget()
                                + "; stored on " + stored + ", still waiting for " + stillRunning;
                    }
                });
        return new Placement(holders.stream().map(h -> h.get(0)).toList(), new Metadata.Erasure(k, hashes));
    }

    @Override
    public byte[] read(String objectKey, Metadata meta, Deadline d, List<Throwable> failures) {
        Map<String, Integer> chunkOf = chunkIndexes(objectKey, meta);
        Map<String, byte[]> got = calls.read(objectKey, new ArrayList<>(chunkOf.keySet()),
                meta.erasure().dataChunks(), meta.erasure().chunkLength(meta.size()),
                cloud -> expected(objectKey, meta, chunkOf.get(cloud)), shortfall(meta), d, failures);
        return got == null ? null : decode(objectKey, meta, chunkOf, got);
    }

    @Override
    public byte[] readRound(Race<byte[]> race, Race.Signal changed, String objectKey, Metadata meta, Deadline d,
                            List<Throwable> failures) throws InterruptedException {
        Map<String, Integer> chunkOf = chunkIndexes(objectKey, meta);
        Map<String, byte[]> got = calls.readRound(race, changed, objectKey, new ArrayList<>(chunkOf.keySet()),
                meta.erasure().dataChunks(), cloud -> expected(objectKey, meta, chunkOf.get(cloud)), shortfall(meta),
                d, failures);
        return got == null ? null : decode(objectKey, meta, chunkOf, got);
    }

    private static String shortfall(Metadata meta) {
        return "fewer than " + meta.erasure().dataChunks() + " chunks matching the metadata hashes";
    }

    private static CloudCalls.Expected expected(String objectKey, Metadata meta, int chunk) {
        return new CloudCalls.Expected(meta.erasure().chunkLength(meta.size()),
                meta.erasure().chunkHashes().get(chunk), objectKey, chunk);
    }

    /** The configured clouds holding a chunk of this version, with their chunk index. */
    private Map<String, Integer> chunkIndexes(String objectKey, Metadata meta) {
        Map<String, Integer> chunkOf = new HashMap<>();
        for (int i = 0; i < meta.clouds().size(); i++) {
            if (calls.configured(meta.clouds().get(i))) {
                chunkOf.put(meta.clouds().get(i), i);
            }
        }
        if (chunkOf.size() < meta.erasure().dataChunks()) {
            throw new HybrisException("'" + objectKey + "' is erasure-coded into " + meta.erasure().totalChunks()
                    + " chunks on clouds " + meta.clouds() + ", " + meta.erasure().dataChunks() + " needed, but only "
                    + chunkOf.size() + " of them are configured in this client (configured: " + calls.cloudOrder()
                    + ")");
        }
        return chunkOf;
    }

    private byte[] decode(String objectKey, Metadata meta, Map<String, Integer> chunkOf, Map<String, byte[]> got) {
        Metadata.Erasure erasure = meta.erasure();
        byte[][] chunks = new byte[erasure.totalChunks()][];
        boolean[] present = new boolean[erasure.totalChunks()];
        got.forEach((cloud, chunk) -> {
            int index = chunkOf.get(cloud);
            chunks[index] = chunk;
            present[index] = true;
        });
        ErasureCoder coder = coders.coder(erasure.dataChunks(), erasure.totalChunks() - erasure.dataChunks());
        byte[] value = coder.decodeValue(chunks, present, meta.size());
        if (!Hashing.matches(meta.sha256(), Hashing.sha256(value))) {
            throw new HybrisException("'" + objectKey + "': the " + erasure.dataChunks() + " verified chunks decode"
                    + " to bytes that do not match the version's hash; the " + coder.name()
                    + " erasure coder disagrees with the writer's (report this as a bug)");
        }
        return value;
    }

    @Override
    public String toString() {
        return "ErasureLayout[k=" + k + ", f=" + f + "]";
    }
}
