/**
 * JMH benchmarks, each side by side with its baseline in the same run (raw Curator / consul-client on the same
 * server, raw JDK crypto on the same buffers). Figures and commands: {@code docs/benchmarks.md}.
 */
package io.hybris.benchmarks;
