/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An in-process ZooKeeper server for the single-process default setup ({@code hybris.rmds.type=embedded-zookeeper}).
 *
 * <p>{@link io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeper} is a standalone server on 127.0.0.1;
 * {@link io.hybris.rmds.zookeeper.embedded.EmbeddedZooKeeperMetadataStoreProvider} starts one and returns a
 * {@link io.hybris.rmds.zookeeper.ZooKeeperMetadataStore} connected to it, registered for
 * {@link java.util.ServiceLoader} in {@code META-INF/services/io.hybris.spi.MetadataStoreProvider}. A module of its
 * own because only the server needs ZooKeeper's server-side libraries (metrics-core, snappy-java): an application
 * on an external ensemble depends on {@code hybris-rmds-zookeeper} alone.
 */
package io.hybris.rmds.zookeeper.embedded;
