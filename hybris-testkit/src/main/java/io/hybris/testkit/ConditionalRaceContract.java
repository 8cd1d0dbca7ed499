/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.DeleteOptions;
import io.hybris.Hybris;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;
import io.hybris.PutOvertakenException;
import io.hybris.VersionInfo;
import io.hybris.spi.MetadataStore;
import io.hybris.testkit.LinearizabilityChecker.Verdict;
import io.hybris.testkit.RegisterHistory.Kind;
import io.hybris.testkit.RegisterHistory.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deterministic races between a plain PUT and a conditional write (the precondition observes the state it
 * replaces), each history checked by {@link LinearizabilityChecker}: the plain PUT reads the key, its metadata
 * update is held while another client's conditional write commits over the state the PUT read, with a timestamp
 * that orders after the PUT's (same sequence number, a later client id), then the PUT's update goes on. The PUT
 * cannot be ordered just before that write (it would break the precondition): it puts again after it, or, streamed
 * in chunks, fails having committed nothing.
 */
public abstract class ConditionalRaceContract extends HybrisContractFixture {

    @Test
    void aPutOvertakenByAWriteIfMatchTheValueItReadIsNotOrderedBeforeIt() throws Exception {
        raceWith(h -> {
            VersionInfo base = h.put(C, "k", bytes("base"));
            return new Base("base", base);
        }, (h, b) -> h.put(C, "k", bytes("cond"), PutOptions.ifMatch(b.version().version())), "cond", "base");
    }

    @Test
    void aPutOvertakenByADeleteIfMatchTheValueItReadIsNotOrderedBeforeIt() throws Exception {
        raceWith(h -> new Base("base", h.put(C, "k", bytes("base"))),
                (h, b) -> h.delete(C, "k", DeleteOptions.ifMatch(b.version().version())).orElseThrow(), null,
                "base");
    }

    @Test
    void aPutOvertakenByAWriteIfAbsentIsNotOrderedBeforeIt() throws Exception {
        raceWith(h -> {
            h.put(C, "k", bytes("gone"));
            h.delete(C, "k").orElseThrow();
            return new Base(null, null);
        }, (h, b) -> h.put(C, "k", bytes("cond"), PutOptions.ifAbsent()), "cond", null);
    }

    /** The state a race starts from: its value (null: absent) and version (null: none). */
    private record Base(String value, VersionInfo version) {
    }

    /** A conditional write of the race, by the client given, over the base. */
    private interface ConditionalWrite {
        VersionInfo run(Hybris h, Base base);
    }

    /**
     * Races a plain PUT of "plain" (client "a-held", update held) against {@code conditional} (client "z-cond"),
     * which writes {@code condValue} (null: deletes) requiring {@code required} (null: absent), and checks the
     * history: the base written, the two calls, and a read after both.
     */
    private void raceWith(Function<Hybris, Base> setUp, ConditionalWrite conditional, String condValue,
                          String required) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris plain = open(config(raw).clientId("a-held").metadataStore(holdingFirstUpdate(held, go)));
        Hybris cond = open(config(raw).clientId("z-cond"));
        RegisterHistory history = new RegisterHistory();
        long t0 = System.nanoTime();
        Base base = setUp.apply(cond);
        if (base.value() != null) {
            history.add(new Op(1, Kind.WRITE, "k", base.value(), t0, System.nanoTime()));
        }
        long p0 = System.nanoTime();
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k", bytes("plain")));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue(); // read the base, update held
        long c0 = System.nanoTime();
        VersionInfo committed = conditional.run(cond, base);
        history.add(Op.conditional(1, condValue == null ? Kind.DELETE : Kind.WRITE, "k", condValue, required, true,
                c0, System.nanoTime()));
        go.countDown();
        VersionInfo mine = put.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
        history.add(new Op(0, Kind.WRITE, "k", "plain", p0, System.nanoTime()));
        long r0 = System.nanoTime();
        String read = str(cond.get(C, "k"));
        history.add(new Op(2, Kind.READ, "k", read, r0, System.nanoTime()));
        List<Op> ops = history.operations();
        assertThat(LinearizabilityChecker.check(ops).verdict()).as("%s", ops).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(read).as("the PUT put again, after the conditional write").isEqualTo("plain");
        assertThat(mine.sequence()).isEqualTo(committed.sequence() + 1);
        await().atMost(AWAIT).untilAsserted(() -> assertThat(raw.stream().mapToLong(c -> objectsOn(c, "_a-held."))
                .sum()).as("the f+1 copies of the version committed; the overtaken upload's are deleted").isEqualTo(2));
    }

    /**
     * A PUT of a value streamed in chunks cannot read its stream again: overtaken by a write ifMatch the version it
     * read, it fails, commits nothing and deletes its uploads.
     */
    @Test
    void aStreamedPutOvertakenByAWriteIfMatchTheValueItReadFailsAndLeavesNothing() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Hybris plain = open(config(raw).clientId("a-held").metadataStore(holdingFirstUpdate(held, go))
                .chunkSize(64 << 10).chunkThreshold(64 << 10));
        Hybris cond = open(config(raw).clientId("z-cond"));
        VersionInfo base = cond.put(C, "k", bytes("base"));
        CompletableFuture<VersionInfo> put = CompletableFuture.supplyAsync(() -> plain.put(C, "k",
                new java.io.ByteArrayInputStream(new byte[200 << 10]), -1));
        assertThat(held.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue(); // read the base, update held
        VersionInfo winner = cond.put(C, "k", bytes("cond"), PutOptions.ifMatch(base.version()));
        go.countDown();
        assertThat(put).failsWithin(AWAIT).withThrowableThat().havingRootCause()
                .isInstanceOfSatisfying(PutOvertakenException.class, e -> {
                    assertThat(e).isNotInstanceOf(PreconditionFailedException.class); // it asked for none
                    assertThat(e.key()).isEqualTo("k");
                    assertThat(e.current()).hasValue(winner);
                    assertThat(e.getMessage()).contains("nothing was committed").contains("put again");
                });
        assertThat(str(cond.get(C, "k"))).isEqualTo("cond");
        await().atMost(AWAIT).untilAsserted(() -> assertThat(raw).allSatisfy(c -> assertThat(objectsOn(c,
                "_a-held.")).isZero()));
    }

    /** {@link #metadata}, holding the first conditional update (counting {@code held} down) until {@code go}. */
    private MetadataStore holdingFirstUpdate(CountDownLatch held, CountDownLatch go) {
        return HeldUpdates.first(metadata, u -> true, held, go, AWAIT);
    }
}
