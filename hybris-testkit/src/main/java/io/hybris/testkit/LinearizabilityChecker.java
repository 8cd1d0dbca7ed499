/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a {@link RegisterHistory} for linearizability, key by key (linearizability is compositional), with the
 * Wing-Gong-Lowe search: repeatedly linearize a pending operation whose invocation precedes every pending
 * response, backtracking on dead ends, memoizing (linearized set, register state) pairs. The register model:
 * a write sets the value, a delete clears it, a read must return the current value (null when absent), and a
 * delete that recorded what it returned must find a value to delete ({@link RegisterHistory#DELETED}) or none
 * ({@link RegisterHistory#NOTHING_DELETED}): of two deletes of one value, only one deleted it. A conditional write
 * or delete ({@link RegisterHistory.Precondition}) that succeeded takes effect where its precondition holds (the
 * required value is current, or for ifAbsent the key is absent); one that failed its precondition changes nothing,
 * where the precondition does not hold.
 *
 * <p><b>Budget</b>: the search is exponential in the worst case, so each key gets a budget of explored states
 * (distinct memoized pairs). A key whose search runs out of budget is {@link Verdict#UNDECIDED}: reported,
 * never passed ({@link Result#linearizable()} is true only when every key is {@link Verdict#LINEARIZABLE}).
 * Every key is checked, so a result lists every bad and every undecided key.
 *
 * <p><b>Unknown outcomes</b>: an operation with response {@link RegisterHistory#UNKNOWN_RESPONSE} may take
 * effect at any point after its invocation, or never; its return event sorts after every other event, so the
 * search may linearize it last, which is the same as never. Before the search, each key's history is reduced
 * by rewrites that keep exactly the same verdict and keep long histories with many such operations decidable:
 * <ul>
 *   <li>a read with an unknown outcome observed nothing and is dropped; a conditional call that succeeded
 *       observed the value (or absence) it required, as a read returning it;</li>
 *   <li>an unknown-outcome write or delete whose resulting state (the value written; absent for a delete) no
 *       completed read returns is dropped: in any linearization no read sees its effect, so it can be moved to
 *       the end, i.e. never take effect (a delete that returned {@link RegisterHistory#NOTHING_DELETED} saw an
 *       absent key; one that returned {@link RegisterHistory#DELETED} saw some value, so while such a delete
 *       responded after a write's invocation, the write is kept, pending to the end: many such writes can leave
 *       a key {@link Verdict#UNDECIDED}, never passed; likewise a call that failed its precondition saw the
 *       state differ from a value, which any write or delete invoked before it responded may explain);</li>
 *   <li>an unknown-outcome write that is the only write of its value on the key, and whose value some
 *       completed read returns, must take effect before the earliest such read responds: that response becomes
 *       its response, so it stops being pending for the rest of the history.</li>
 * </ul>
 * The memo stores the linearized set relative to its first unlinearized operation, so its size follows the
 * window of concurrency rather than the length of the history. (At a quiescent point, where nothing is
 * pending, the memo already reduces the prefix to the set of possible register states, so the search does not
 * partition the history explicitly.)
 */
public final class LinearizabilityChecker {
    /**
     * The default budget of explored states per key of {@link #check(List)}. Exhausting it takes in the order of
     * 15 seconds and 1 GB of heap for one key.
     */
    public static final long DEFAULT_MAX_STATES_PER_KEY = 5_000_000L;

    private LinearizabilityChecker() {
    }

    /** The verdict for one key or a whole history. */
    public enum Verdict {
        /** A linearization was found. */
        LINEARIZABLE,
        /** The search space was exhausted within the budget without finding a linearization. */
        NOT_LINEARIZABLE,
        /** The budget ran out before the search found a linearization or exhausted the space. */
        UNDECIDED
    }

    /**
     * The verdict for one history.
     *
     * @param verdict           {@link Verdict#NOT_LINEARIZABLE} if any key is, else {@link Verdict#UNDECIDED} if
     *                          any key is, else {@link Verdict#LINEARIZABLE}
     * @param byKey             every key's verdict, in the order the keys first appear in the history
     * @param operationsChecked the number of operations in the history
     * @param statesExplored    the number of search states explored, over all keys
     */
    public record Result(Verdict verdict, Map<String, Verdict> byKey, int operationsChecked, long statesExplored) {
        public Result {
            Objects.requireNonNull(verdict, "verdict");
            byKey = Collections.unmodifiableMap(new LinkedHashMap<>(byKey));
        }

        /** True only when every key is {@link Verdict#LINEARIZABLE}. */
        public boolean linearizable() {
            return verdict == Verdict.LINEARIZABLE;
        }

        /** The first key whose history is {@link Verdict#NOT_LINEARIZABLE}, if any (undecided keys are not). */
        public Optional<String> counterexampleKey() {
            return keys(Verdict.NOT_LINEARIZABLE).stream().findFirst();
        }

        /** Every key whose history is {@link Verdict#NOT_LINEARIZABLE}. */
        public List<String> nonLinearizableKeys() {
            return keys(Verdict.NOT_LINEARIZABLE);
        }

        /** Every key whose search ran out of budget. */
        public List<String> undecidedKeys() {
            return keys(Verdict.UNDECIDED);
        }

        private List<String> keys(Verdict v) {
            return byKey.entrySet().stream().filter(e -> e.getValue() == v).map(Map.Entry::getKey).toList();
        }
    }

    /** Checks every key with {@link #DEFAULT_MAX_STATES_PER_KEY}. */
    public static Result check(List<Op> history) {
        return check(history, DEFAULT_MAX_STATES_PER_KEY);
    }

    /**
     * Checks every key, each with a budget of {@code maxStatesPerKey} explored states.
     *
     * @throws IllegalArgumentException if {@code maxStatesPerKey} is not positive
     */
    public static Result check(List<Op> history, long maxStatesPerKey) {
        if (maxStatesPerKey <= 0) {
            throw new IllegalArgumentException("maxStatesPerKey must be positive, got " + maxStatesPerKey);
        }
        Map<String, List<Op>> opsByKey = new LinkedHashMap<>();
        for (Op op : history) {
            opsByKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        long explored = 0;
        boolean bad = false;
        boolean undecided = false;
        for (Map.Entry<String, List<Op>> e : opsByKey.entrySet()) {
            long[] states = new long[1];
            Verdict v = checkKey(reduce(e.getValue()), maxStatesPerKey, states);
            explored += states[0];
            verdicts.put(e.getKey(), v);
            bad |= v == Verdict.NOT_LINEARIZABLE;
            undecided |= v == Verdict.UNDECIDED;
        }
        Verdict overall = bad ? Verdict.NOT_LINEARIZABLE : undecided ? Verdict.UNDECIDED : Verdict.LINEARIZABLE;
        return new Result(overall, verdicts, history.size(), explored);
    }

    /**
     * The number of pairs of operations on the same key, by different clients, at least one a write or delete,
     * whose intervals overlap ({@code a.invoke < b.response && b.invoke < a.response}): how much concurrency a
     * history actually exercised.
     */
    public static long overlappingPairs(List<Op> history) {
        Map<String, List<Op>> opsByKey = new HashMap<>();
        for (Op op : history) {
            opsByKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        long pairs = 0;
        for (List<Op> ops : opsByKey.values()) {
            List<Op> sorted = new ArrayList<>(ops);
            sorted.sort(Comparator.comparingLong(Op::invoke));
            for (int i = 0; i < sorted.size(); i++) {
                Op a = sorted.get(i);
                for (int j = i + 1; j < sorted.size() && sorted.get(j).invoke() < a.response(); j++) {
                    Op b = sorted.get(j);
                    if (a.client() != b.client() && a.invoke() < b.response()
                            && (a.kind() != Kind.READ || b.kind() != Kind.READ)) {
                        pairs++;
                    }
                }
            }
        }
        return pairs;
    }

    /** The verdict-preserving rewrites of one key's history described in the class comment. */
    static List<Op> reduce(List<Op> ops) {
        Set<String> readValues = new HashSet<>();
        boolean readAbsent = false;
        long lastDeletedResponse = Long.MIN_VALUE; // of a delete that found some value to delete
        Map<String, Long> earliestReadResponse = new HashMap<>();
        Map<String, Integer> writesOfValue = new HashMap<>();
        long lastFailedResponse = Long.MIN_VALUE; // of a call that saw the state differ from what it required
        for (Op op : ops) {
            if (op.precondition() != null && op.response() != RegisterHistory.UNKNOWN_RESPONSE) {
                RegisterHistory.Precondition p = op.precondition();
                if (!p.held()) {
                    lastFailedResponse = Math.max(lastFailedResponse, op.response());
                }
                if (p.held() && p.ifMatch() == null) {
                    readAbsent = true;
                } else if (p.held()) { // it saw the value it required, as a read would have
                    readValues.add(p.ifMatch());
                    earliestReadResponse.merge(p.ifMatch(), op.response(), Math::min);
                }
            }
            if (op.kind() == Kind.WRITE && op.value() != null) {
                writesOfValue.merge(op.value(), 1, Integer::sum);
            }
            if (op.kind() == Kind.READ && op.response() != RegisterHistory.UNKNOWN_RESPONSE) {
                if (op.value() == null) {
                    readAbsent = true;
                } else {
                    readValues.add(op.value());
                    earliestReadResponse.merge(op.value(), op.response(), Math::min);
                }
            } else if (op.kind() == Kind.DELETE && RegisterHistory.NOTHING_DELETED.equals(op.value())) {
                readAbsent = true;
            } else if (op.kind() == Kind.DELETE && RegisterHistory.DELETED.equals(op.value())) {
                lastDeletedResponse = Math.max(lastDeletedResponse, op.response());
            }
        }
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            if (op.response() != RegisterHistory.UNKNOWN_RESPONSE) {
                out.add(op);
                continue;
            }
            switch (op.kind()) {
                case READ -> {
                    // observed nothing: no constraint
                }
                case DELETE -> {
                    if (readAbsent || lastFailedResponse > op.invoke()) {
                        out.add(op);
                    }
                }
                case WRITE -> {
                    if (op.value() == null) {
                        if (readAbsent || lastFailedResponse > op.invoke()) {
                            out.add(op);
                        }
                    } else if (readValues.contains(op.value())) {
                        long bound = earliestReadResponse.get(op.value());
                        if (writesOfValue.get(op.value()) == 1 && bound >= op.invoke()) {
                            out.add(new Op(op.client(), op.kind(), op.key(), op.value(), op.invoke(), bound,
                                    op.precondition()));
                        } else {
                            out.add(op);
                        }
                    } else if (lastDeletedResponse > op.invoke() || lastFailedResponse > op.invoke()) {
                        out.add(op); // perhaps the value a delete found
                    }
                }
                default -> throw new IllegalStateException("unknown kind " + op.kind());
            }
        }
        return out;
    }

    private static final class Node {
        final Op op;
        final int id;
        final boolean call;
        Node match;
        Node prev;
        Node next;

        Node(Op op, int id, boolean call) {
            this.op = op;
            this.id = id;
            this.call = call;
        }
    }

    /** The linearized set as its first unlinearized id plus the bits from there on, and the register state. */
    private record Memo(int base, BitSet window, String state) {
    }

    private record Frame(Node call, String stateBefore) {
    }

    static Verdict checkKey(List<Op> unordered, long maxStates, long[] statesExplored) {
        record Event(long time, boolean call, Node node) {
        }
        // ids in invocation order, so the linearized set is mostly a prefix and the memo's window stays small
        List<Op> ops = new ArrayList<>(unordered);
        ops.sort(Comparator.comparingLong(Op::invoke));
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            Node call = new Node(op, i, true);
            Node ret = new Node(op, i, false);
            call.match = ret;
            events.add(new Event(op.invoke(), true, call));
            events.add(new Event(op.response(), false, ret));
        }
        // calls before returns at equal times: treats touching operations as concurrent (the permissive choice)
        events.sort(Comparator.comparingLong(Event::time).thenComparing(ev -> !ev.call()));
        Node head = new Node(null, -1, false);
        Node tail = head;
        for (Event ev : events) {
            tail.next = ev.node();
            ev.node().prev = tail;
            tail = ev.node();
        }
        BitSet linearized = new BitSet(ops.size());
        Set<Memo> seen = new HashSet<>();
        Deque<Frame> stack = new ArrayDeque<>();
        String state = null;
        Node entry = head.next;
        while (head.next != null) {
            if (entry.call) {
                Op op = entry.op;
                String next = step(op, state);
                boolean ok = next != REJECTED;
                if (ok) {
                    linearized.set(entry.id);
                    int base = linearized.nextClearBit(0);
                    Memo memo = new Memo(base, linearized.get(base, Math.max(base, linearized.length())), next);
                    if (seen.add(memo)) {
                        if (seen.size() > maxStates) {
                            statesExplored[0] = seen.size();
                            return Verdict.UNDECIDED;
                        }
                        stack.push(new Frame(entry, state));
                        state = next;
                        lift(entry);
                        entry = head.next;
                        continue;
                    }
                    linearized.clear(entry.id);
                }
                entry = entry.next;
            } else {
                if (stack.isEmpty()) {
                    statesExplored[0] = seen.size();
                    return Verdict.NOT_LINEARIZABLE;
                }
                Frame top = stack.pop();
                state = top.stateBefore();
                linearized.clear(top.call().id);
                unlift(top.call());
                entry = top.call().next;
            }
        }
        statesExplored[0] = seen.size();
        return Verdict.LINEARIZABLE;
    }

    /** What {@link #step} returns for an operation that cannot take place in the state given. */
    private static final String REJECTED = new String("\u0000rejected");

    /** The register state after {@code op} in {@code state} (null: absent), or {@link #REJECTED}. */
    private static String step(Op op, String state) {
        RegisterHistory.Precondition p = op.precondition();
        if (p != null) { // took effect only where it held; failed, changing nothing, only where it did not
            if (p.matches(state) != p.held()) {
                return REJECTED;
            }
            return !p.held() ? state : op.kind() == Kind.WRITE ? op.value() : null;
        }
        return switch (op.kind()) {
            case WRITE -> op.value();
            case DELETE -> op.value() == null || op.value().equals(RegisterHistory.DELETED) == (state != null)
                    ? null : REJECTED;
            case READ -> Objects.equals(op.value(), state) ? state : REJECTED;
        };
    }

    private static void lift(Node call) {
        call.prev.next = call.next;
        if (call.next != null) {
            call.next.prev = call.prev;
        }
        Node ret = call.match;
        ret.prev.next = ret.next;
        if (ret.next != null) {
            ret.next.prev = ret.prev;
        }
    }

    private static void unlift(Node call) {
        Node ret = call.match;
        ret.prev.next = ret;
        if (ret.next != null) {
            ret.next.prev = ret;
        }
        call.prev.next = call;
        if (call.next != null) {
            call.next.prev = call;
        }
    }

    /**
     * For a history that is not linearizable: where the operations on its first bad key were written (a file, one
     * operation per line in invocation order), for the assertion's message; else an empty string.
     */
    static String historyOnFailure(Result result, List<Op> ops) {
        if (result.linearizable()) {
            return "";
        }
        String key = result.counterexampleKey().orElse(result.byKey().keySet().iterator().next());
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempFile("hybris-history-" + key + "-", ".txt");
            java.nio.file.Files.write(file, ops.stream().filter(o -> o.key().equals(key))
                    .sorted(Comparator.comparingLong(Op::invoke)).map(Op::toString).toList());
            return "; the history of key " + key + " is in " + file;
        } catch (java.io.IOException e) {
            return "; the history of key " + key + " could not be written: " + e;
        }
    }
}
