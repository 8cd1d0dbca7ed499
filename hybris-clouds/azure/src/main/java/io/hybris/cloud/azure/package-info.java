/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A Hybris cloud on Azure Blob Storage.
 *
 * <p>{@link io.hybris.cloud.azure.AzureBlobCloudStore} keeps each Hybris object as one block blob in a container
 * (optionally under a key prefix), written with a single Put Blob request and read with a ranged Get Blob that
 * never fetches more than the size recorded in metadata plus one byte. It is selected with
 * {@code hybris.cloud.<id>.type=azure} through {@link io.hybris.cloud.azure.AzureBlobCloudStoreProvider}, registered
 * for {@link java.util.ServiceLoader} in {@code META-INF/services/io.hybris.spi.CloudStoreProvider}. No Azure SDK
 * type appears in this package's public API.
 */
package io.hybris.cloud.azure;
