/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * The campaign's running counts — operations by kind and outcome, faults by kind — and the violations found.
 * Thread-safe; printed as a one-line tally while the campaign runs and as tables at the end.
 */
final class Tally {
    private final Map<String, LongAdder> ops = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> faults = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    /** Counts one operation of {@code kind} (put, get, ...) that ended with {@code outcome} (ok, unknown, ...). */
    void op(String kind, String outcome) {
        ops.computeIfAbsent(kind + " " + outcome, k -> new LongAdder()).increment();
    }

    /** Counts one injected fault. */
    void fault(String kind) {
        faults.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Records a violation of a checked property; the campaign fails if there is any. */
    void violation(String what) {
        if (violations.size() < 1000) {
            violations.add(what);
        }
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    long totalOps() {
        return ops.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long totalFaults() {
        return faults.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> opsByKindAndOutcome() {
        Map<String, Long> out = new TreeMap<>();
        ops.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    Map<String, Long> faultsByKind() {
        Map<String, Long> out = new TreeMap<>();
        faults.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** One line: ops, faults, violations. */
    String line() {
        return "ops " + totalOps() + " (" + count("ok") + " ok, " + count("unknown") + " unknown, " + count("failed")
                + " failed) | faults " + totalFaults() + " | violations " + violations.size();
    }

    private long count(String outcome) {
        return ops.entrySet().stream().filter(e -> e.getKey().endsWith(" " + outcome))
                .mapToLong(e -> e.getValue().sum()).sum();
    }
}
