/**
 * Hybris metadata on Apache ZooKeeper (the paper's RMDS, §4.1).
 *
 * <p>{@link io.hybris.rmds.zookeeper.ZooKeeperMetadataStore} talks to an ensemble through Curator and is selected
 * with {@code hybris.rmds.type=zookeeper}; {@link io.hybris.rmds.zookeeper.EmbeddedZooKeeper} is an in-process
 * standalone server behind {@code hybris.rmds.type=embedded-zookeeper}, the single-process default setup. Both
 * providers are registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services/io.hybris.spi.MetadataStoreProvider}.
 */
package io.hybris.rmds.zookeeper;
