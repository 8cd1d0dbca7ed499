/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.spi.ByteConsumer;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.OversizedObjectException;
import io.hybris.spi.TransientCloudException;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The cloud nemesis of a Jepsen-style fault campaign: one decorator whose misbehaviour is a {@link Mode} switched
 * at runtime with {@link #mode(Mode)}, while calls run. It starts {@link Mode#HONEST} (pure pass-through); each
 * other mode is one way an untrusted cloud can fail or lie, as described on its constant. A mode is read once when
 * a call starts, so a switch takes effect for the next call (and, when leaving {@link Mode#HANG}, releases the
 * calls that are hung).
 *
 * <p>To be able to serve old or foreign bytes ({@link Mode#STALE}, {@link Mode#OTHER_KEY}) the decorator
 * remembers, in every mode, what the puts it passed on to the delegate stored: per key prefix (an object key up to
 * and including its last {@code '#'}, so all Hybris versions of one user key share it; a key without {@code '#'}
 * is its own prefix) the latest and the previous version, for at most 10,000 prefixes (the least recently
 * written are forgotten first), and the last 16 puts of distinct keys. Values
 * are copied, so this costs up to two values' memory per remembered prefix. Writes a mode drops or fails are
 * not remembered.
 *
 * <p>A streaming {@link #get(String, long, ByteConsumer)} hands the consumer exactly the bytes it returns, altered
 * ones included, so Hybris's hash-while-arriving sees what a lying cloud sent. {@link #faultsInjected()} and
 * {@link #faultsByMode()} count the calls whose answer the decorator actually altered (a corrupted not-found
 * stays a not-found and is not counted). The {@code maxBytes} limit of a read holds in every mode: a reply longer
 * than the limit fails with {@link OversizedObjectException}, as a real store's bounded download would.
 *
 * <p>Thread-safe; deterministic (no randomness). {@link #callTimeBound()} stays empty, since a call may hang.
 *
 * <pre>{@code
 * ByzantineCloudStore nemesis = ByzantineCloudStore.of(new InMemoryCloudStore("c0"));
 * Hybris hybris = Hybris.open(HybrisConfig.builder().f(1).cloud(nemesis).cloud(c1).cloud(c2)...build());
 * hybris.put("box", "k", value);
 * nemesis.mode(ByzantineCloudStore.Mode.CORRUPT);  // c0 now serves flipped bytes
 * hybris.get("box", "k");                          // still the value: Hybris detects it by hash
 * nemesis.mode(ByzantineCloudStore.Mode.HONEST);
 * nemesis.faultsByMode().get(ByzantineCloudStore.Mode.CORRUPT);  // 1
 * }</pre>
 */
public final class ByzantineCloudStore extends ForwardingCloudStore {

    /** How the cloud misbehaves. Modes not naming a call type affect every call type. */
    public enum Mode {
        /** Pure pass-through: every call reaches the delegate unchanged. */
        HONEST,
        /**
         * A get returns the stored bytes with one byte (the one at index {@code length / 2}) flipped: same length.
         * A not-found and an empty object are returned unchanged.
         */
        CORRUPT,
        /**
         * A get returns the bytes of the version put before the requested one under the same key prefix, if this
         * decorator saw both puts; otherwise (the requested version is the oldest it remembers, or one it never
         * saw) it answers not-found.
         */
        STALE,
        /**
         * A get returns the bytes of a different object recently put through this decorator (the most recent
         * one whose bytes differ from the requested object's), or not-found if there is none.
         */
        OTHER_KEY,
        /** A get returns the first half ({@code length / 2} bytes) of the stored bytes. */
        TRUNCATED,
        /**
         * A get of an existing object is answered with the stored bytes followed by 1 MiB of garbage, read under
         * the {@code maxBytes} limit as in {@link OversizedCloudStore}: if the reply exceeds the limit the read
         * fails with {@link OversizedObjectException} after {@code maxBytes + 1} bytes, else it returns bytes and
         * garbage. A not-found is returned unchanged.
         */
        OVERSIZED,
        /**
         * Every call blocks (without spinning) until the mode is switched away from {@code HANG}, then proceeds
         * to the delegate as if honest; an interrupted hung call fails with {@link TransientCloudException}
         * and keeps its interrupt flag. Each call that was held counts as one fault.
         */
        HANG,
        /** A put returns normally but stores nothing (a write acknowledged and dropped); other calls pass. */
        DROP_WRITES,
        /**
         * A list returns the delegate's listing with every other entry (the second, fourth, ...) omitted, plus
         * one invented entry under the listed prefix ({@code prefix + "zz-invented/x#1_liar"}) that does not
         * exist; other calls pass.
         */
        LYING_LIST,
        /** Every put, get, list and delete fails with {@link TransientCloudException} without reaching the delegate. */
        DOWN
    }

    /** Most key prefixes remembered for {@link Mode#STALE}. */
    static final int MAX_PREFIXES = 10_000;
    /** Most recent puts remembered for {@link Mode#OTHER_KEY}. */
    static final int RECENT_PUTS = 16;
    /** Garbage bytes appended to a reply in {@link Mode#OVERSIZED}. */
    static final long OVERSIZED_EXTRA_BYTES = 1L << 20;

    private static final ByteConsumer IGNORE = (bytes, offset, length) -> { };

    private final Object hangMonitor = new Object();
    /** Written under {@link #hangMonitor}, so a hung call cannot miss the switch that releases it. */
    private volatile Mode mode = Mode.HONEST;
    /** How many times the mode left {@link Mode#HANG}; guarded by {@link #hangMonitor}. */
    private long hangReleases;

    private final AtomicLongArray faults = new AtomicLongArray(Mode.values().length);
    private final History history = new History();

    private ByzantineCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** A nemesis over {@code delegate}, {@link Mode#HONEST} until switched. */
    public static ByzantineCloudStore of(CloudStore delegate) {
        return new ByzantineCloudStore(delegate);
    }

    /**
     * Switches the misbehaviour now: calls starting from here on follow {@code mode}. Leaving {@link Mode#HANG}
     * releases every hung call, which then proceeds to the delegate.
     */
    public void mode(Mode mode) {
        Objects.requireNonNull(mode, "mode must not be null");
        synchronized (hangMonitor) {
            if (this.mode == Mode.HANG && mode != Mode.HANG) {
                hangReleases++;
                hangMonitor.notifyAll();
            }
            this.mode = mode;
        }
    }

    /** The current mode. */
    public Mode mode() {
        return mode;
    }

    /** Calls whose answer this decorator altered, over all modes, since creation. */
    public long faultsInjected() {
        long total = 0;
        for (int i = 0; i < faults.length(); i++) {
            total += faults.get(i);
        }
        return total;
    }

    /** {@link #faultsInjected()} per mode, every mode present (zero if none): an immutable snapshot. */
    public Map<Mode, Long> faultsByMode() {
        Map<Mode, Long> out = new EnumMap<>(Mode.class);
        for (Mode m : Mode.values()) {
            out.put(m, faults.get(m.ordinal()));
        }
        return Collections.unmodifiableMap(out);
    }

    @Override
    public void put(String objectKey, byte[] value) {
        switch (mode) {
            case DOWN -> throw down("put", objectKey);
            case DROP_WRITES -> {
                fault(Mode.DROP_WRITES);
                return;
            }
            case HANG -> hang("put", objectKey);
            default -> {
            }
        }
        delegate().put(objectKey, value);
        history.remember(objectKey, value);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        return read(objectKey, maxBytes, IGNORE);
    }

    /** As {@link #get(String, long)}; {@code onBytes} sees exactly the bytes returned, altered or not. */
    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes, ByteConsumer onBytes) {
        return read(objectKey, maxBytes, Objects.requireNonNull(onBytes, "onBytes must not be null"));
    }

    @Override
    public List<CloudObject> list(String prefix) {
        switch (mode) {
            case DOWN -> throw down("list", prefix);
            case HANG -> hang("list", prefix);
            case LYING_LIST -> {
                return lie(prefix);
            }
            default -> {
            }
        }
        return delegate().list(prefix);
    }

    @Override
    public void delete(String objectKey) {
        switch (mode) {
            case DOWN -> throw down("delete", objectKey);
            case HANG -> hang("delete", objectKey);
            default -> {
            }
        }
        delegate().delete(objectKey);
    }

    @Override
    public String toString() {
        return "ByzantineCloudStore[" + mode + ", " + delegate() + "]";
    }

    private Optional<byte[]> read(String objectKey, long maxBytes, ByteConsumer onBytes) {
        Mode m = mode;
        switch (m) {
            case DOWN -> throw down("get", objectKey);
            case HANG -> hang("get", objectKey);
            case CORRUPT, STALE, OTHER_KEY, TRUNCATED, OVERSIZED -> {
                Optional<byte[]> answer = misread(m, objectKey, maxBytes);
                answer.ifPresent(bytes -> onBytes.accept(bytes, 0, bytes.length));
                return answer;
            }
            default -> {
            }
        }
        return delegate().get(objectKey, maxBytes, onBytes);
    }

    /** The answer of a lying read in mode {@code m}, counted as a fault if it differs from the honest one. */
    private Optional<byte[]> misread(Mode m, String objectKey, long maxBytes) {
        Optional<byte[]> honest = delegate().get(objectKey, maxBytes);
        if (m == Mode.OVERSIZED) {
            if (honest.isEmpty()) {
                return honest;
            }
            fault(m); // the reply is longer than the object, whether it is cut off or returned
            return oversizedReply(objectKey, honest.get(), maxBytes);
        }
        Optional<byte[]> answer = switch (m) {
            case CORRUPT -> honest.map(ByzantineCloudStore::flipOneByte);
            case TRUNCATED -> honest.map(bytes -> Arrays.copyOf(bytes, bytes.length / 2));
            case STALE -> history.olderVersion(objectKey);
            case OTHER_KEY -> history.otherObject(objectKey, honest.orElse(null));
            default -> throw new IllegalArgumentException("not a lying read: " + m);
        };
        if (!sameAnswer(honest, answer)) {
            fault(m);
        }
        if (answer.isPresent() && answer.get().length > maxBytes) {
            throw new OversizedObjectException(id(), objectKey, maxBytes); // a bounded download stops here
        }
        return answer;
    }

    /** {@code stored} plus garbage, read under {@code maxBytes} by {@link OversizedCloudStore}'s bounded read. */
    private Optional<byte[]> oversizedReply(String objectKey, byte[] stored, long maxBytes) {
        return OversizedCloudStore.of(new OneObject(id(), stored), OVERSIZED_EXTRA_BYTES).get(objectKey, maxBytes);
    }

    private List<CloudObject> lie(String prefix) {
        List<CloudObject> real = delegate().list(prefix);
        List<CloudObject> out = new ArrayList<>(real.size() / 2 + 2);
        Set<String> existing = new HashSet<>();
        for (int i = 0; i < real.size(); i++) {
            existing.add(real.get(i).key());
            if (i % 2 == 0) {
                out.add(real.get(i));
            }
        }
        int n = 1;
        while (existing.contains(invented(prefix, n))) {
            n++;
        }
        out.add(new CloudObject(invented(prefix, n), 1, Instant.EPOCH));
        fault(Mode.LYING_LIST);
        return out;
    }

    private static String invented(String prefix, int n) {
        return prefix + "zz-invented/x#" + n + "_liar";
    }

    /** Blocks the calling thread while the mode is {@link Mode#HANG} and has not left it since the call came. */
    private void hang(String op, String key) {
        synchronized (hangMonitor) {
            if (mode != Mode.HANG) {
                return;
            }
            fault(Mode.HANG);
            long releasesAtEntry = hangReleases;
            try {
                while (mode == Mode.HANG && hangReleases == releasesAtEntry) {
                    hangMonitor.wait();
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException(); // interrupted, then released before it woke (JLS 17.2.4)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientCloudException(id(), op + " of '" + key + "' interrupted while cloud " + id()
                        + " hangs (injected)", e);
            }
        }
    }

    private TransientCloudException down(String op, String key) {
        fault(Mode.DOWN);
        return new TransientCloudException(id(), op + " of '" + key + "' failed: cloud " + id()
                + " is down (injected)");
    }

    private void fault(Mode m) {
        faults.incrementAndGet(m.ordinal());
    }

    private static byte[] flipOneByte(byte[] bytes) {
        if (bytes.length == 0) {
            return bytes;
        }
        byte[] corrupt = bytes.clone();
        corrupt[corrupt.length / 2] ^= (byte) 0xFF;
        return corrupt;
    }

    private static boolean sameAnswer(Optional<byte[]> a, Optional<byte[]> b) {
        return a.isPresent() == b.isPresent() && (a.isEmpty() || Arrays.equals(a.get(), b.get()));
    }

    /** The version prefix of an object key: up to and including its last {@code '#'}, else the whole key. */
    private static String prefixOf(String objectKey) {
        int hash = objectKey.lastIndexOf('#');
        return hash < 0 ? objectKey : objectKey.substring(0, hash + 1);
    }

    /** What the puts passed to the delegate stored, bounded; every method synchronized. Values are copies. */
    private static final class History {
        /** The latest two versions under one prefix; {@code previous} is null until a second version came. */
        private record Versions(String latestKey, byte[] latest, byte[] previous) {
        }

        private record Put(String objectKey, byte[] value) {
        }

        private final LinkedHashMap<String, Versions> byPrefix = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Versions> eldest) {
                return size() > MAX_PREFIXES;
            }
        };
        private final Deque<Put> recent = new ArrayDeque<>();

        synchronized void remember(String objectKey, byte[] value) {
            byte[] copy = value.clone();
            String prefix = prefixOf(objectKey);
            Versions before = byPrefix.remove(prefix); // re-inserted last: eviction forgets the least recently written
            Versions after;
            if (before == null) {
                after = new Versions(objectKey, copy, null);
            } else if (before.latestKey().equals(objectKey) && !prefix.equals(objectKey)) {
                after = new Versions(objectKey, copy, before.previous()); // the same version again, e.g. a retry
            } else {
                after = new Versions(objectKey, copy, before.latest());
            }
            byPrefix.put(prefix, after);

            recent.removeIf(p -> p.objectKey().equals(objectKey));
            recent.addFirst(new Put(objectKey, copy));
            if (recent.size() > RECENT_PUTS) {
                recent.removeLast();
            }
        }

        /** The version put before {@code objectKey} under its prefix, if {@code objectKey} is the latest seen. */
        synchronized Optional<byte[]> olderVersion(String objectKey) {
            Versions v = byPrefix.get(prefixOf(objectKey));
            if (v == null || v.previous() == null || !v.latestKey().equals(objectKey)) {
                return Optional.empty();
            }
            return Optional.of(v.previous().clone());
        }

        /** The most recent put of another key whose bytes differ from {@code honest} (null if not found). */
        synchronized Optional<byte[]> otherObject(String objectKey, byte[] honest) {
            for (Put p : recent) {
                if (!p.objectKey().equals(objectKey) && !Arrays.equals(p.value(), honest)) {
                    return Optional.of(p.value().clone());
                }
            }
            return Optional.empty();
        }
    }

    /** A read-only store of one object, so {@link OversizedCloudStore} can serve a reply built from it. */
    private static final class OneObject implements CloudStore {
        private final String id;
        private final byte[] bytes;

        OneObject(String id, byte[] bytes) {
            this.id = id;
            this.bytes = bytes;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            return Optional.of(bytes);
        }

        @Override
        public void put(String objectKey, byte[] value) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public List<CloudObject> list(String prefix) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public void delete(String objectKey) {
            throw new UnsupportedOperationException("read-only");
        }
    }
}
