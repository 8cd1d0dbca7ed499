/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Every Hybris benchmark, each side by side with its baseline in the same run: JMH benchmarks (raw Curator /
 * consul-client on the same server, raw JDK crypto on the same buffers), end-to-end programs on in-memory and
 * emulated clouds ({@link io.hybris.benchmarks.CloudPathBenchmark}: the provider SDKs on the same emulators), and
 * the YCSB baseline binding {@link io.hybris.benchmarks.DirectS3Client} that the {@code bench/} scripts run beside
 * the Hybris binding. All of it is in one jar, {@code hybris-benchmarks/target/benchmarks.jar}. Figures and
 * commands: {@code docs/benchmarks.md}.
 */
package io.hybris.benchmarks;
