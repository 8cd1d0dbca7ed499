/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A YCSB binding for Hybris: {@link io.hybris.ycsb.HybrisClient}. Run YCSB's core workloads against the embedded
 * default or a configured deployment; see {@code docs/ycsb.md}.
 */
package io.hybris.ycsb;
