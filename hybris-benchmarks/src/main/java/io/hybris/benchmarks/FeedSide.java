/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

/**
 * One system under test in {@link ChangeFeedLatencyRun}: a writer committing changes to one container's change log
 * and subscribers, each with its own client (its own ZooKeeper session or Consul HTTP client), following that log
 * and reporting every change they receive to a {@link FeedRecorder}.
 */
interface FeedSide extends AutoCloseable {

    /** The name printed in the table. */
    String name();

    /**
     * Connects the writer, prepares the keys it overwrites, then starts {@code subscribers} subscribers following
     * the log from its current end, reporting to {@code recorder} as subscriber {@code 0 .. subscribers - 1}.
     */
    void open(int subscribers, FeedRecorder recorder) throws Exception;

    /**
     * Commits the next change with the writer's full metadata work (a read of the key, then the commit with its
     * log record) and returns its identity, as the subscribers will report it.
     */
    String write() throws Exception;

    @Override
    void close();
}
