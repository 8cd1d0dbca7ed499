/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Hybris client: {@link io.hybris.Hybris} (put, get, delete, list, tput and their asynchronous twins),
 * its immutable configuration {@link io.hybris.HybrisConfig}, the value types it returns, and the exceptions
 * it throws (all extending {@link io.hybris.HybrisException}).
 */
package io.hybris;
