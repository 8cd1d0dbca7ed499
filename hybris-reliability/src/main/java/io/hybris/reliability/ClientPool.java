/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.spi.MetadataStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The in-process clients of the campaign: a few slots, each holding one {@link Hybris} instance that several
 * worker threads share. {@link #replace} swaps a slot's client for a fresh one and closes the old one while
 * its calls are still in flight (the {@link CloseNemesis}). All clients use the same decorated clouds and each
 * its own metadata store connection. Thread-safe.
 */
final class ClientPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClientPool.class);

    private record Client(Hybris hybris, MetadataStore store) {
    }

    private final MetadataCluster cluster;
    private final String namespace;
    private final ClientConfig config;
    private final AtomicReferenceArray<Client> slots;

    ClientPool(MetadataCluster cluster, String namespace, ClientConfig config, int size) {
        this.cluster = cluster;
        this.namespace = namespace;
        this.config = config;
        this.slots = new AtomicReferenceArray<>(size);
        for (int i = 0; i < size; i++) {
            slots.set(i, open(Duration.ofHours(1)));
        }
    }

    int size() {
        return slots.length();
    }

    /** The client in {@code slot} now. */
    Hybris client(int slot) {
        return slots.get(slot).hybris();
    }

    /** How the pool's clients are configured. */
    ClientConfig config() {
        return config;
    }

    /** A new metadata store for one client. */
    MetadataStore newStore() {
        return cluster.newStore(namespace);
    }

    private Client open(Duration gcGrace) {
        MetadataStore store = newStore();
        try {
            return new Client(Hybris.open(config.builder(store, gcGrace).build()), store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Opens a fresh client for {@code slot}, then closes the previous one with whatever calls it has in flight. */
    void replace(int slot) {
        Client fresh = open(Duration.ofHours(1));
        close(slots.getAndSet(slot, fresh));
    }

    private static void close(Client c) {
        try {
            c.hybris().close();
        } finally {
            try {
                c.store().close();
            } catch (RuntimeException e) {
                LOG.debug("closing a campaign metadata store failed", e);
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < slots.length(); i++) {
            close(slots.get(i));
        }
    }
}
