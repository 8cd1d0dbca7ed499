/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;
import io.hybris.RewrapReport;
import io.hybris.spi.MetadataEntry;
import io.hybris.spi.MetadataKey;
import io.hybris.spi.MetadataPage;
import io.hybris.spi.MetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.MetadataVersion;
import io.hybris.spi.VersionConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * KEK rotation: re-wraps the data key of every encrypted version in every container under the key provider's
 * current KEK, rewriting only metadata (same timestamp, clouds and hash; no cloud object is touched), each with a
 * conditional update so a concurrent write is never overwritten (on a conflict the entry is re-read and handled
 * again). Entries already under the current KEK are skipped, so an interrupted rotation is resumed by running it
 * again. Thread-safe.
 */
final class DataKeyRewrap {
    private static final Logger LOG = LoggerFactory.getLogger(DataKeyRewrap.class);

    private enum Outcome { REWRAPPED, CURRENT, NOT_ENCRYPTED, UNREADABLE }

    private final MetadataStore store;
    private final MetadataCalls metadata;
    private final Sealer sealer;
    private final Duration deadline;

    DataKeyRewrap(MetadataStore store, MetadataCalls metadata, Sealer sealer, Duration deadline) {
        this.store = store;
        this.metadata = metadata;
        this.sealer = sealer;
        this.deadline = deadline;
    }

    RewrapReport run(io.hybris.WorkProgress progress) {
        if (!sealer.encrypts()) {
            throw new InvalidRequestException("re-wrapping data keys needs a key provider: configure"
                    + " hybris.crypto.mode (or HybrisConfig.Builder.encryption) first");
        }
        int examined = 0;
        int rewrapped = 0;
        int current = 0;
        int plaintext = 0;
        java.util.List<String> unreadable = new java.util.ArrayList<>();
        int unreadableCount = 0;
        long total = progress == io.hybris.WorkProgress.NONE ? -1 : count(); // one metadata-only pass
        // each listing is one metadata call, bounded by the deadline as any other (the run as a whole is not)
        for (String container : metadata.listing(Deadline.after(deadline), "list of containers", store::containers)) {
            String after = null;
            MetadataPage page;
            do {
                String from = after;
                page = metadata.listing(Deadline.after(deadline), "list of " + container,
                        () -> store.list(container, "", from, 500));
                for (MetadataEntry entry : page.entries()) {
                    after = entry.key();
                    examined++;
                    if (total >= 0) {
                        ProgressReports.report(progress, examined, Math.max(total, examined));
                    }
                    MetadataKey mk = new MetadataKey(container, entry.key());
                    checkNotInterrupted(mk, null); // a store called in place may never see the interrupt
                    Outcome outcome;
                    try {
                        outcome = rewrapOne(mk, entry);
                    } catch (io.hybris.CryptoException e) {
                        // a key provider's call cut short by the interrupt (a KMS request) is no unreadable entry
                        checkNotInterrupted(mk, e);
                        // one entry this client cannot unwrap must not stop the rotation of all after it (a re-run
                        // would stop at the same entry forever): it is counted and named, and left as it is
                        LOG.warn("data key re-wrap: {} left as it is: {}", mk, e.getMessage());
                        outcome = Outcome.UNREADABLE;
                        if (unreadable.size() < 100) {
                            unreadable.add(container + "/" + entry.key());
                        }
                    }
                    switch (outcome) {
                        case REWRAPPED -> rewrapped++;
                        case CURRENT -> current++;
                        case UNREADABLE -> unreadableCount++;
                        default -> plaintext++;
                    }
                }
            } while (page.hasMore());
        }
        RewrapReport report = new RewrapReport(examined, rewrapped, current, plaintext, unreadableCount, unreadable);
        LOG.info("data key re-wrap: {}", report);
        return report;
    }

    /** How many entries the metadata store holds, over every container. */
    private long count() {
        long n = 0;
        for (String container : metadata.listing(Deadline.after(deadline), "list of containers", store::containers)) {
            String after = null;
            MetadataPage page;
            do {
                String from = after;
                page = metadata.listing(Deadline.after(deadline), "list of " + container,
                        () -> store.list(container, "", from, 500));
                n += page.entries().size();
                if (!page.entries().isEmpty()) {
                    after = page.entries().get(page.entries().size() - 1).key();
                }
            } while (page.hasMore());
        }
        return n;
    }

    /** Throws {@link io.hybris.CallInterruptedException} if the running thread was interrupted (flag kept). */
    private static void checkNotInterrupted(MetadataKey next, Throwable cause) {
        if (Thread.currentThread().isInterrupted()) {
            throw new io.hybris.CallInterruptedException("data key re-wrap interrupted before " + next + " was"
                    + " re-wrapped: run it again to resume", false, cause);
        }
    }

    private Outcome rewrapOne(MetadataKey mk, MetadataEntry listed) {
        Current cur = new Current(MetadataCodec.decode(listed.value()), listed.version(), 0);
        while (true) {
            if (!cur.live() || cur.meta().encryption() == null) {
                return Outcome.NOT_ENCRYPTED;
            }
            Metadata.Encryption rewrapped = sealer.rewrap(cur.meta(), mk.toString());
            if (rewrapped == null) {
                return Outcome.CURRENT;
            }
            Metadata written = cur.meta().withEncryption(rewrapped);
            MetadataVersion expected = cur.version();
            try {
                metadata.conditionalUpdate(new MetadataUpdate(mk, MetadataCodec.encode(written), expected),
                        Deadline.after(deadline), "re-wrap of " + mk);
                return Outcome.REWRAPPED;
            } catch (VersionConflictException e) {
                cur = metadata.read(mk, Deadline.after(deadline)); // a concurrent write or re-wrap: look again
                if (written.equals(cur.meta())) {
                    // exactly what this update wrote: a re-sent request whose first send landed
                    return Outcome.REWRAPPED;
                }
            }
        }
    }
}
