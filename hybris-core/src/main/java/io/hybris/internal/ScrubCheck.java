/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scrub's check of one key found and did (docs/scrub.md): the clouds where a copy is missing, corrupt or could
 * not be checked, the verified copies read, the copies rebuilt. A copy whose cloud failed to answer is
 * {@link Verdict#UNCHECKED}, never missing or corrupt: it may be fine, so nothing is rebuilt over it and it makes no
 * key unrecoverable. Used by one scrubbing thread.
 */
final class ScrubCheck {
    /** The verdict on one copy. */
    enum Verdict {
        /** Where it should be (and, read, its hash matches). */
        OK,
        /** Absent from its cloud. */
        MISSING,
        /** The wrong size or hash. */
        CORRUPT,
        /** Its cloud failed to answer, could not be listed or is not configured: it may be fine. */
        UNCHECKED,
        /** On the cloud a migration moves off: to move whatever it is ({@link #found} keeps what it is). */
        MOVE
    }

    final List<String> missingOn = new ArrayList<>();
    final List<String> corruptOn = new ArrayList<>();
    final List<String> uncheckedOn = new ArrayList<>();
    final List<String> repairedOn = new ArrayList<>();
    final Map<String, byte[]> bytes = new HashMap<>();
    /** What each copy to move (on the cloud a migration moves off) was found to be, by piece name and index. */
    final Map<String, Verdict> found = new HashMap<>();
    final Map<ScrubPiece, Verdict[]> cachedVerdicts = new HashMap<>();
    /** The bytes of each copy moved to another cloud, by position in the placement (checked once recorded). */
    final Map<Integer, byte[]> moved = new HashMap<>();
    Verdict lastVerdict = Verdict.UNCHECKED;
    int repairedCopies;
    boolean moving;
    boolean needsMove;
    /** Why some bad copies were not rebuilt, or null. */
    String unrepaired;

    /** Records the verdict on a copy on {@code cloud}. */
    void record(Verdict v, String cloud) {
        if (v == Verdict.MISSING) {
            missingOn.add(cloud);
        } else if (v == Verdict.CORRUPT) {
            corruptOn.add(cloud);
        } else if (v == Verdict.UNCHECKED) {
            uncheckedOn.add(cloud);
        }
    }

    /** What copy {@code i} of {@code p} is as a source to rebuild from: OK, UNCHECKED (worth a try), or bad. */
    Verdict source(ScrubPiece p, Verdict[] v, int i) {
        return v[i] == Verdict.MOVE ? found.getOrDefault(p.name() + "#" + i, Verdict.UNCHECKED) : v[i];
    }

    /** Copy {@code i} of {@code p}, read, turned out to be {@code now}: its verdict and the clouds follow. */
    void reread(ScrubPiece p, Verdict[] v, int i, Verdict now) {
        Verdict was = source(p, v, i);
        if (was == now) {
            return;
        }
        String cloud = p.clouds().get(i);
        if (was == Verdict.MISSING) {
            missingOn.remove(cloud);
        } else if (was == Verdict.CORRUPT) {
            corruptOn.remove(cloud);
        } else if (was == Verdict.UNCHECKED) {
            uncheckedOn.remove(cloud);
        }
        record(now, cloud);
        if (v[i] == Verdict.MOVE) {
            found.put(p.name() + "#" + i, now); // it still moves, whatever it is
        } else {
            v[i] = now;
        }
    }

    /** How many copies of {@code p} could not be checked (their clouds did not answer): they may be fine. */
    int unsure(ScrubPiece p, Verdict[] v) {
        int n = 0;
        for (int i = 0; i < v.length; i++) {
            n += source(p, v, i) == Verdict.UNCHECKED ? 1 : 0;
        }
        return n;
    }

    /** Records why bad copies are left unrebuilt (the first reason). */
    void unrepaired(String why) {
        if (unrepaired == null) {
            unrepaired = why;
        }
    }

    boolean hasBad(Verdict[] v) {
        for (Verdict x : v) {
            if (x == Verdict.MISSING || x == Verdict.CORRUPT || x == Verdict.MOVE) {
                return true;
            }
        }
        return false;
    }

    boolean bad() {
        return !missingOn.isEmpty() || !corruptOn.isEmpty() || moving;
    }
}
