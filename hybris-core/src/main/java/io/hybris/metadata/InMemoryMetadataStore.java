/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.metadata;

import io.hybris.spi.KeyEncoding;
import io.hybris.spi.MetadataChange;
import io.hybris.spi.MetadataChangePage;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataStoreProvider;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.ProviderOptions;
import io.hybris.spi.VersionConflictException;
import io.hybris.spi.Subscription;
import io.hybris.spi.VersionedValue;
import io.hybris.spi.support.MetadataPaging;
import io.hybris.spi.WatchedRead;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A linearizable {@link MetadataStore} in this JVM's memory: one client process only, nothing survives a
 * restart. For tests and single-process experiments. Thread-safe; every operation takes one lock, so reads and
 * conditional updates are trivially linearizable. Versions start at 0 on creation and grow by one per update,
 * as in ZooKeeper. It keeps a change log per container ({@link #hasChangeLog()}), sequence numbers 1, 2, 3, ...,
 * trimmed to the newest {@code retention} commits on every commit.
 */
public final class InMemoryMetadataStore implements MetadataStore {
    private record Entry(byte[] value, long version) {
    }

    private final Map<String, TreeMap<String, Entry>> containers = new HashMap<>();
    private final Map<MetadataKey, List<Watch>> watches = new HashMap<>();
    private final Map<String, ChangeLog> logs = new HashMap<>();
    private final int changesRetention;

    /** An empty store whose change logs keep the newest {@value #DEFAULT_CHANGES_RETENTION} commits. */
    public InMemoryMetadataStore() {
        this(DEFAULT_CHANGES_RETENTION);
    }

    /**
     * An empty store whose change logs keep the newest {@code changesRetention} commits per container.
     *
     * @throws IllegalArgumentException if {@code changesRetention} is not positive
     */
    public InMemoryMetadataStore(int changesRetention) {
        if (changesRetention <= 0) {
            throw new IllegalArgumentException("changesRetention must be positive: " + changesRetention);
        }
        this.changesRetention = changesRetention;
    }

    /** How many commits a container's change log keeps by default, as for the ZooKeeper and Consul stores. */
    public static final int DEFAULT_CHANGES_RETENTION = 20_000;

    private static final class ChangeLog {
        final ArrayDeque<MetadataChange> commits = new ArrayDeque<>();
        final List<Watch> watches = new ArrayList<>();
        long last;
        long compactedThrough;
    }

    private static final class Watch {
        final Runnable callback;
        final AtomicBoolean done = new AtomicBoolean();

        Watch(Runnable callback) {
            this.callback = callback;
        }
    }

    @Override
    public synchronized Optional<VersionedValue> read(MetadataKey key) {
        Entry e = entry(key);
        return e == null ? Optional.empty()
                : Optional.of(new VersionedValue(e.value.clone(), new MetadataVersion(e.version)));
    }

    @Override
    public WatchedRead readAndWatch(MetadataKey key, Runnable onChange) {
        Watch w = new Watch(onChange);
        Optional<VersionedValue> current;
        synchronized (this) {
            current = read(key);
            watches.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(w);
        }
        return new WatchedRead(current, () -> {
            w.done.set(true);
            synchronized (this) {
                List<Watch> list = watches.get(key);
                if (list != null) {
                    list.remove(w);
                }
            }
        });
    }

    @Override
    public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
        conditionalUpdateAll(List.of(update));
    }

    @Override
    public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
        List<Watch> toFire = new ArrayList<>();
        synchronized (this) {
            Set<MetadataKey> seen = new HashSet<>();
            for (MetadataUpdate u : updates) {
                if (!seen.add(u.key())) {
                    throw new IllegalArgumentException("duplicate key in atomic update: " + u.key());
                }
                Entry e = entry(u.key());
                MetadataVersion expected = u.expectedVersion();
                boolean ok = expected.isAbsent() ? e == null : e != null && e.version == expected.value();
                if (!ok) {
                    throw new VersionConflictException("version of " + u.key() + " is "
                            + (e == null ? "ABSENT" : e.version) + ", expected " + expected);
                }
            }
            Map<String, List<MetadataChange.Update>> logged = new TreeMap<>();
            for (MetadataUpdate u : updates) {
                logged.computeIfAbsent(u.key().container(), c -> new ArrayList<>())
                        .add(new MetadataChange.Update(u.key().key(), u.value().clone()));
                Entry e = entry(u.key());
                long version = e == null ? 0 : e.version + 1;
                containers.computeIfAbsent(u.key().container(), c -> new TreeMap<>())
                        .put(KeyEncoding.encode(u.key().key()), new Entry(u.value().clone(), version));
                List<Watch> list = watches.remove(u.key());
                if (list != null) {
                    toFire.addAll(list);
                }
            }
            for (Map.Entry<String, List<MetadataChange.Update>> commit : logged.entrySet()) {
                ChangeLog log = logs.computeIfAbsent(commit.getKey(), c -> new ChangeLog());
                log.commits.addLast(new MetadataChange(++log.last, commit.getValue()));
                while (log.commits.size() > changesRetention) {
                    log.compactedThrough = log.commits.removeFirst().sequence();
                }
                toFire.addAll(log.watches);
                log.watches.clear();
            }
        }
        for (Watch w : toFire) {
            if (w.done.compareAndSet(false, true)) {
                w.callback.run();
            }
        }
    }

    @Override
    public synchronized MetadataPage list(String container, String prefix, String startAfter, int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        TreeMap<String, Entry> map = containers.get(container);
        if (map == null) {
            return new MetadataPage(List.of(), false);
        }
        String encodedPrefix = prefix == null || prefix.isEmpty() ? "" : KeyEncoding.encode(prefix);
        String encodedAfter = startAfter == null ? null : KeyEncoding.encode(startAfter);
        List<MetadataEntry> out = new ArrayList<>();
        boolean more = false;
        for (Map.Entry<String, Entry> e : map.tailMap(encodedPrefix, true).entrySet()) {
            if (!e.getKey().startsWith(encodedPrefix)) {
                break;
            }
            if (encodedAfter != null && e.getKey().compareTo(encodedAfter) <= 0) {
                continue;
            }
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(new MetadataEntry(KeyEncoding.decode(e.getKey()), e.getValue().value.clone(),
                    new MetadataVersion(e.getValue().version)));
        }
        return new MetadataPage(out, more);
    }

    @Override
    public synchronized List<String> containers() {
        return containers.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
                .sorted().toList();
    }

    @Override
    public boolean hasChangeLog() {
        return true;
    }

    @Override
    public synchronized MetadataChangePage changes(String container, long fromSequence, int limit) {
        MetadataPaging.checkLimit(limit);
        ChangeLog log = logs.get(container);
        if (log == null) {
            return new MetadataChangePage(List.of(), 0, false, 0);
        }
        List<MetadataChange> out = new ArrayList<>();
        boolean more = false;
        for (MetadataChange c : log.commits) {
            if (c.sequence() < fromSequence) {
                continue;
            }
            if (out.size() == limit) {
                more = true;
                break;
            }
            out.add(c);
        }
        return new MetadataChangePage(out, log.compactedThrough, more, log.last);
    }

    @Override
    public synchronized long latestChange(String container) {
        ChangeLog log = logs.get(container);
        return log == null ? 0 : log.last;
    }

    @Override
    public Subscription watchChanges(String container, long fromSequence, Runnable onChange) {
        Watch w = new Watch(onChange);
        synchronized (this) {
            ChangeLog log = logs.computeIfAbsent(container, c -> new ChangeLog());
            if (log.last < fromSequence) {
                log.watches.add(w);
                return () -> {
                    w.done.set(true);
                    synchronized (this) {
                        log.watches.remove(w);
                    }
                };
            }
        }
        if (w.done.compareAndSet(false, true)) {
            onChange.run();
        }
        return () -> w.done.set(true);
    }

    private Entry entry(MetadataKey key) {
        TreeMap<String, Entry> map = containers.get(key.container());
        return map == null ? null : map.get(KeyEncoding.encode(key.key()));
    }

    @Override
    public String describe() {
        return "in-memory metadata store";
    }

    /** Calls only take a monitor for a map operation; they never wait on I/O. */
    @Override
    public Optional<Duration> callTimeBound() {
        return Optional.of(Duration.ofSeconds(1));
    }

    @Override
    public void close() {
        // nothing to release
    }

    /** {@code hybris.rmds.type=memory}: metadata lives in this JVM only (tests, experiments). */
    public static final class Provider implements MetadataStoreProvider {
        /** The provider, as {@link java.util.ServiceLoader} creates it. */
        public Provider() {
        }

        @Override
        public String type() {
            return "memory";
        }

        @Override
        public Set<String> optionNames() {
            return Set.of();
        }

        @Override
        public MetadataStore create(ProviderOptions options) {
            return new InMemoryMetadataStore();
        }
    }
}
