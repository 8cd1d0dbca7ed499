/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Metadata stores that ship with core: {@link io.hybris.metadata.InMemoryMetadataStore}, linearizable within
 * one JVM ({@code hybris.rmds.type=memory}), for tests and experiments.
 */
package io.hybris.metadata;
