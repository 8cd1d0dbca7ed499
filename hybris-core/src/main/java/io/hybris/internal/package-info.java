/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The protocol, written once: {@link io.hybris.internal.Engine} (PUT, GET common and worst case, DELETE, LIST,
 * TPUT, KEK re-wrap), the metadata codec, timestamps and object names, latency ranking, garbage collection.
 * Not an API: types here may change in any release (the testkit uses a few of them).
 */
package io.hybris.internal;
