package io.hybris.testkit;

import io.hybris.testkit.RegisterHistory.Op;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
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
 * a write sets the value, a delete clears it, a read must return the current value (null when absent).
 */
public final class LinearizabilityChecker {
    private LinearizabilityChecker() {
    }

    /** The verdict for one history. */
    public record Result(boolean linearizable, Optional<String> counterexampleKey, int operationsChecked) {
    }

    /** Checks every key; stops at the first key whose history is not linearizable. */
    public static Result check(List<Op> history) {
        Map<String, List<Op>> byKey = new LinkedHashMap<>();
        for (Op op : history) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        for (Map.Entry<String, List<Op>> e : byKey.entrySet()) {
            if (!checkKey(e.getValue())) {
                return new Result(false, Optional.of(e.getKey()), history.size());
            }
        }
        return new Result(true, Optional.empty(), history.size());
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

    private record Memo(BitSet linearized, String state) {
    }

    private record Frame(Node call, String stateBefore) {
    }

    static boolean checkKey(List<Op> ops) {
        record Event(long time, boolean call, Node node) {
        }
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
                boolean ok;
                String next;
                switch (op.kind()) {
                    case WRITE -> {
                        ok = true;
                        next = op.value();
                    }
                    case DELETE -> {
                        ok = true;
                        next = null;
                    }
                    default -> {
                        ok = Objects.equals(op.value(), state);
                        next = state;
                    }
                }
                if (ok) {
                    BitSet after = (BitSet) linearized.clone();
                    after.set(entry.id);
                    if (seen.add(new Memo(after, next))) {
                        stack.push(new Frame(entry, state));
                        state = next;
                        linearized.set(entry.id);
                        lift(entry);
                        entry = head.next;
                        continue;
                    }
                }
                entry = entry.next;
            } else {
                if (stack.isEmpty()) {
                    return false;
                }
                Frame top = stack.pop();
                state = top.stateBefore();
                linearized.clear(top.call().id);
                unlift(top.call());
                entry = top.call().next;
            }
        }
        return true;
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
}
