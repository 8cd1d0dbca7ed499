/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Hybris metadata on HashiCorp Consul's KV store (the paper's second RMDS, §4.2).
 *
 * <p>{@link io.hybris.rmds.consul.ConsulMetadataStore} keeps each key's metadata as one Consul KV entry, uses its
 * {@code ModifyIndex} as the version (check-and-set writes), {@code consistent} reads, blocking queries for watches
 * and one {@code /v1/txn} transaction for atomic multi-key updates. It is selected with
 * {@code hybris.rmds.type=consul} through {@link io.hybris.rmds.consul.ConsulMetadataStoreProvider}, registered for
 * {@link java.util.ServiceLoader} in {@code META-INF/services/io.hybris.spi.MetadataStoreProvider}.
 */
package io.hybris.rmds.consul;
