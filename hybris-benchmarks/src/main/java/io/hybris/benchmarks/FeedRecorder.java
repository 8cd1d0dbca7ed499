/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the subscribers of one {@link FeedSide} report what they received: into the round being run, with the
 * time of arrival taken first thing. A delivery outside a round, and a subscriber's failure, are kept and make the
 * next {@link FeedRound#verify} fail.
 */
final class FeedRecorder {
    private volatile FeedRound current;
    private final List<String> problems = new CopyOnWriteArrayList<>();

    /** Subscriber {@code subscriber} received the change {@code id}, now. */
    void delivered(int subscriber, String id) {
        long now = System.nanoTime();
        FeedRound round = current;
        if (round == null) {
            problems.add("subscriber " + subscriber + " received change " + id + " outside any round");
        } else {
            round.delivered(subscriber, id, now);
        }
    }

    /** A subscriber's loop failed (it may have stopped). */
    void failed(int subscriber, Throwable e) {
        problems.add("subscriber " + subscriber + " failed: " + e);
    }

    void begin(FeedRound round) {
        current = round;
    }

    void end() {
        current = null;
    }

    List<String> problems() {
        return problems;
    }
}
