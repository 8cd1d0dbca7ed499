/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Testing Hybris and applications built on it: fault-injecting {@link io.hybris.spi.CloudStore} decorators
 * (corrupt, stale, oversized, slow, unavailable, eventually consistent, gated, recording), the contract suites
 * {@link io.hybris.testkit.CloudStoreContract}, {@link io.hybris.testkit.MetadataStoreContract} and
 * {@link io.hybris.testkit.HybrisContract}, the metadata-store scenario suites
 * {@link io.hybris.testkit.MetadataStoreOutageContract}, {@link io.hybris.testkit.ConfiguredClientContract} and
 * {@link io.hybris.testkit.MetadataStoreFailoverContract}, a linearizability checker, helpers for failover
 * tests, and the test environment's emulated clouds ({@link io.hybris.testkit.TestEnvironment},
 * {@link io.hybris.testkit.Toxiproxy}, {@link io.hybris.testkit.EmulatedClouds}).
 */
package io.hybris.testkit;
