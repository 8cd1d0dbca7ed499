/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.testkit.LinearizabilityChecker;
import io.hybris.testkit.RegisterHistory;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The checks over one epoch's history, which ends with a read of every key after quiescence:
 * <ul>
 *   <li><b>no acknowledged write lost</b>: the value each final read returned comes from a write (or delete) that
 *       no acknowledged write of the key strictly followed — cheap, and decided even when the full check is not;</li>
 *   <li><b>linearizability</b> of each key's whole history with the testkit's checker; a key it cannot decide
 *       within its search budget is reported as undecided, never as passed;</li>
 *   <li><b>no failed write read</b>: no read returned the value of a write whose call reported a definite failure
 *       (nothing written) — the history leaves such writes out, so this names the cause of what would otherwise be
 *       only a linearizability violation.</li>
 * </ul>
 */
final class HistoryChecks {
    /** What the checks found for one epoch. */
    record Verdict(int keys, int linearizable, List<String> notLinearizable, List<String> undecided,
                   List<String> lostWrites, List<String> failedWritesRead) {
    }

    private HistoryChecks() {
    }

    static Verdict check(List<Op> history, Map<String, Op> finalReads, List<Recorder.FailedWrite> failed) {
        List<String> lost = new ArrayList<>();
        Map<String, List<Op>> byKey = new LinkedHashMap<>();
        for (Op op : history) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        finalReads.forEach((key, read) -> {
            String problem = lostWrite(byKey.getOrDefault(key, List.of()), read);
            if (problem != null) {
                lost.add(key + ": " + problem);
            }
        });
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(history);
        List<String> bad = new ArrayList<>(result.nonLinearizableKeys());
        List<String> undecided = new ArrayList<>(result.undecidedKeys());
        int ok = byKey.size() - bad.size() - undecided.size();
        return new Verdict(byKey.size(), ok, bad, undecided, lost, failedWritesRead(history, failed));
    }

    /**
     * The operations of {@code key} in {@code history}, one per line in invoke order, with times in milliseconds
     * from the first invoke ({@code ?} for an unknown outcome): what a reader needs to see why a key's history is not
     * linearizable.
     */
    static String describe(List<Op> history, List<Recorder.FailedWrite> failed, String key) {
        List<Op> ops = history.stream().filter(o -> o.key().equals(key))
                .sorted(java.util.Comparator.comparingLong(Op::invoke)).toList();
        long origin = ops.isEmpty() ? 0 : ops.get(0).invoke();
        java.util.TreeMap<Long, List<String>> lines = new java.util.TreeMap<>();
        for (Op o : ops) {
            lines.computeIfAbsent(o.invoke(), t -> new ArrayList<>()).add(String.format(
                    "  client%d %-6s %-16s [%.3f, %s]%n", o.client(), o.kind(),
                    o.kind() == Kind.DELETE ? "" : String.valueOf(o.value()),
                    (o.invoke() - origin) / 1e6, o.response() == RegisterHistory.UNKNOWN_RESPONSE ? "?"
                            : String.format("%.3f", (o.response() - origin) / 1e6)));
        }
        for (Recorder.FailedWrite w : failed) {
            if (w.key().equals(key)) {
                lines.computeIfAbsent(w.invoke(), t -> new ArrayList<>()).add(String.format(
                        "  client%d %-6s %-16s [%.3f, failed: %s %s, not in the history]%n", w.process(), "FAILED",
                        w.id(), (w.invoke() - origin) / 1e6, w.kind(), w.exception()));
            }
        }
        StringBuilder text = new StringBuilder();
        lines.values().forEach(l -> l.forEach(text::append));
        return text.toString();
    }

    /** Every read that returned the value of a write reported as definitely failed, which nothing may ever read. */
    static List<String> failedWritesRead(List<Op> history, List<Recorder.FailedWrite> failed) {
        Map<String, Recorder.FailedWrite> byId = new LinkedHashMap<>();
        failed.forEach(w -> byId.put(w.key() + "=" + w.id(), w));
        List<String> found = new ArrayList<>();
        for (Op op : history) {
            Recorder.FailedWrite w = op.kind() == Kind.READ && op.value() != null
                    ? byId.get(op.key() + "=" + op.value()) : null;
            if (w != null) {
                found.add(op + " returned the value of client" + w.process() + "'s " + w.kind() + " invoked at "
                        + w.invoke() + ", which failed with " + w.exception() + " (nothing written)");
            }
        }
        return found;
    }

    /** Null if {@code read} may follow every acknowledged write of its key, else what is wrong. */
    static String lostWrite(List<Op> ops, Op read) {
        List<Op> acked = ops.stream().filter(o -> o.kind() != Kind.READ && o != read
                && o.response() != RegisterHistory.UNKNOWN_RESPONSE && o.response() < read.invoke()).toList();
        if (read.value() == null) {
            if (acked.isEmpty()) {
                return null;
            }
            boolean someDeleteLatest = ops.stream().filter(o -> o.kind() == Kind.DELETE && o.invoke() < read.response())
                    .anyMatch(d -> notStrictlyFollowed(d, acked));
            return someDeleteLatest ? null : "the final read found no value, but acknowledged writes exist and no"
                    + " delete could be the last of them";
        }
        Op source = ops.stream().filter(o -> o.kind() == Kind.WRITE && Objects.equals(o.value(), read.value()))
                .findFirst().orElse(null);
        if (source == null) {
            return "the final read returned " + read.value() + ", which no write of this key wrote";
        }
        if (!notStrictlyFollowed(source, acked)) {
            Op later = acked.stream().filter(w -> w.invoke() > source.response()).findFirst().orElseThrow();
            return "the final read returned " + read.value() + ", but the acknowledged " + later
                    + " started after that write ended: it was lost";
        }
        return null;
    }

    private static boolean notStrictlyFollowed(Op w, List<Op> acked) {
        return w.response() == RegisterHistory.UNKNOWN_RESPONSE
                || acked.stream().noneMatch(a -> a != w && a.invoke() > w.response());
    }
}
