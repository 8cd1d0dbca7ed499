/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The seams of Hybris: {@link io.hybris.spi.MetadataStore} (the trusted metadata store, paper's RMDS),
 * {@link io.hybris.spi.CloudStore} (one untrusted cloud), {@link io.hybris.spi.KeyProvider} (custody of data
 * keys), and the providers that create stores from configuration through {@link java.util.ServiceLoader}.
 * Implementations prove themselves with the testkit's contract suites.
 */
package io.hybris.spi;
