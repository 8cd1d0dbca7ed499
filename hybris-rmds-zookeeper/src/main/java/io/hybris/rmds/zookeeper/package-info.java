/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Hybris metadata on Apache ZooKeeper (the paper's RMDS, §4.1).
 *
 * <p>{@link io.hybris.rmds.zookeeper.ZooKeeperMetadataStore} talks to an ensemble through Curator and is selected
 * with {@code hybris.rmds.type=zookeeper}; its provider is registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services/io.hybris.spi.MetadataStoreProvider}. The in-process standalone server behind
 * {@code hybris.rmds.type=embedded-zookeeper}, the single-process default setup, is in the module
 * {@code hybris-rmds-zookeeper-embedded} (package {@code io.hybris.rmds.zookeeper.embedded}), with the server-only
 * libraries it needs.
 */
package io.hybris.rmds.zookeeper;
