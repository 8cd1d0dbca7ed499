/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.hybris.testkit.StreamingFixture.C;
import static org.assertj.core.api.Assertions.assertThat;

/** ifAbsent puts, ifAbsent tputs and ifMatch deletes racing on one key from two clients: one winner per round. */
class IfAbsentRaceEdgesTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void exactlyOneCreatorPerRoundAndTheDeleteOfThatVersionOnly() throws Exception {
        Hybris a = fx.open();
        Hybris b = fx.open(x -> x.clientId("w2"));
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 15; round++) {
                CyclicBarrier start = new CyclicBarrier(writers);
                List<Future<VersionInfo>> fs = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    Hybris h = i % 2 == 0 ? a : b;
                    int w = i;
                    byte[] v = ("r" + round + "w" + w).getBytes();
                    fs.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            if (w % 3 == 0) {
                                return h.tput(C, Map.of("k", v, "other" + w, v),
                                        Map.of("k", PutOptions.ifAbsent())).get("k");
                            }
                            return h.put(C, "k", v, PutOptions.ifAbsent());
                        } catch (PreconditionFailedException e) {
                            return null;
                        }
                    }));
                }
                List<VersionInfo> won = new ArrayList<>();
                for (Future<VersionInfo> f : fs) {
                    VersionInfo v = f.get(30, TimeUnit.SECONDS);
                    if (v != null) {
                        won.add(v);
                    }
                }
                assertThat(won).as("round " + round).hasSize(1);
                assertThat(a.describe(C, "k")).hasValueSatisfying(d -> assertThat(d.version())
                        .isEqualTo(won.get(0).version()));
                // two deletes ifMatch the winner: one deletes, the other fails
                CyclicBarrier del = new CyclicBarrier(2);
                List<Future<Boolean>> ds = new ArrayList<>();
                for (Hybris h : List.of(a, b)) {
                    ds.add(pool.submit(() -> {
                        del.await(10, TimeUnit.SECONDS);
                        try {
                            return h.delete(C, "k", DeleteOptions.ifMatch(won.get(0).version())).isPresent();
                        } catch (PreconditionFailedException e) {
                            return false;
                        }
                    }));
                }
                int deleted = 0;
                for (Future<Boolean> f : ds) {
                    deleted += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(deleted).as("round " + round).isEqualTo(1);
                assertThat(a.get(C, "k")).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
