/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/** Runnable examples: {@link io.hybris.examples.Quickstart} on the embedded default. */
package io.hybris.examples;
