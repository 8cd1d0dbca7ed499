/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A kit for adapter authors, so every driver and store does the same thing the same way: typed option
 * descriptors ({@link io.hybris.spi.support.Option}, {@link io.hybris.spi.support.OptionSet},
 * {@link io.hybris.spi.support.StandardOptions}) from which a provider's accepted options, validation and docs
 * table come; the value syntax ({@link io.hybris.spi.support.ConfigValues}); interruptible blocking SDK calls
 * ({@link io.hybris.spi.support.InterruptibleCalls}, run on Hybris's own I/O threads when they carry an
 * {@link io.hybris.spi.support.AbortSignal}); trust-store loading
 * ({@link io.hybris.spi.support.TrustStore}); the clean-up of temporary files killed processes left
 * ({@link io.hybris.spi.support.LeftoverFiles}); and the paging of metadata listings
 * ({@link io.hybris.spi.support.MetadataPaging}). Everything here is public, stable SPI; none of it is needed by
 * applications.
 */
package io.hybris.spi.support;
