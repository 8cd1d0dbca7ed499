/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** The Consul metadata store for Hybris ({@code hybris.rmds.type=consul}). */
@SuppressWarnings("requires-automatic")
module io.hybris.rmds.consul {
    requires transitive io.hybris.core;
    requires org.slf4j;
    requires consul.client;
    requires okhttp3;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;

    exports io.hybris.rmds.consul;

    provides io.hybris.spi.MetadataStoreProvider with io.hybris.rmds.consul.ConsulMetadataStoreProvider;
}
