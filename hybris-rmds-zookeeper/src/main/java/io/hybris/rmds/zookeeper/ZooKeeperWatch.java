/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper;

import io.hybris.spi.Subscription;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A watch of a {@link ZooKeeperMetadataStore}: a data (or exists) watch that runs its callback at most once, also
 * when the session expires (the server forgets watches with the session); cancelling disarms it and removes it
 * from the server in the background.
 */
final class ZooKeeperWatch implements Watcher, Subscription {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperMetadataStore.class);

    private final ZooKeeperSession session;
    private final String description;
    private final String path;
    private final Runnable onChange;
    private final AtomicBoolean done = new AtomicBoolean();
    private final boolean children;

    ZooKeeperWatch(ZooKeeperSession session, String description, String path, Runnable onChange) {
        this(session, description, path, onChange, false);
    }

    /** A watch that also fires when the node's children change ({@code children}: a change-log watch). */
    ZooKeeperWatch(ZooKeeperSession session, String description, String path, Runnable onChange, boolean children) {
        this.session = session;
        this.description = description;
        this.path = path;
        this.onChange = onChange;
        this.children = children;
    }

    @Override
    public void process(WatchedEvent event) {
        switch (event.getType()) {
            case NodeCreated, NodeDataChanged, NodeDeleted -> fire();
            case NodeChildrenChanged -> {
                if (children) {
                    fire();
                }
            }
            case None -> {
                if (event.getState() == Event.KeeperState.Expired) {
                    fire(); // the server dropped the watch with the session: the key may have changed
                }
            }
            default -> {
                // watch removed, children changed: not a change of this key's value
            }
        }
    }

    /** Runs the callback now, unless it ran or the watch was cancelled. */
    void fire() {
        if (done.compareAndSet(false, true)) {
            try {
                onChange.run();
            } catch (RuntimeException e) {
                LOG.warn("{}: watch callback for {} threw", description, path, e);
            }
        }
    }

    @Override
    public void cancel() {
        if (!done.compareAndSet(false, true) || session.isClosed()) {
            return;
        }
        try {
            session.client().watchers().remove(this).ofType(WatcherType.Any).locally()
                    .inBackground((c, event) -> LOG.trace("{}: removed watch on {}: rc {}", description, path,
                            event.getResultCode()))
                    .forPath(path);
        } catch (Exception e) {
            LOG.debug("{}: could not remove watch on {}", description, path, e);
        }
    }
}
