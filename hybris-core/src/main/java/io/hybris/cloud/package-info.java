/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Cloud stores that ship with core: {@link io.hybris.cloud.DirectoryCloudStore} (one directory per "cloud",
 * the embedded default) and {@link io.hybris.cloud.InMemoryCloudStore}, with their providers
 * ({@code hybris.cloud.<id>.type=directory|memory}).
 */
package io.hybris.cloud;
