/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A folder sync client in the mould of StackSync, over Hybris's change feed and conditional writes:
 * {@link io.hybris.examples.sync.SyncClient}, and {@link io.hybris.examples.sync.SyncDemo} running two of them.
 */
package io.hybris.examples.sync;
