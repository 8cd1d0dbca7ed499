/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.ScrubListener;
import io.hybris.ScrubOptions;
import io.hybris.ScrubReport;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;

import java.nio.file.Path;

/**
 * The child JVM of {@link KilledScrubTest}: a client on the shared ZooKeeper and directory clouds that runs a
 * repairing scrub with a state file, paced to a few hundred requests per second, and prints {@code PAGE <checked>}
 * after each page of keys; it is killed in the middle. Exit code 1 means the scrub finished, which it must not.
 *
 * <p>Arguments: ZooKeeper connect string, ZooKeeper root, clouds directory, state file.
 */
public final class KilledScrubChild {
    private KilledScrubChild() {
    }

    public static void main(String[] args) {
        ParentWatch.haltWhenParentDies();
        try {
            HybrisConfig.Builder b = Hybris.builder().f(1).clientId("scrub-child").metadataStore(
                    ZooKeeperMetadataStore.builder().connect(args[0]).root(args[1]).build());
            for (String id : KilledScrubTest.CLOUDS) {
                b.cloud(new DirectoryCloudStore(id, Path.of(args[2]).resolve(id)));
            }
            try (Hybris hybris = Hybris.open(b.build())) {
                hybris.scrub(ScrubOptions.listing().repair(true).stateFile(Path.of(args[3]))
                        .requestsPerSecond(KilledScrubTest.CHILD_REQUESTS_PER_SECOND)
                        .listener(new ScrubListener() {
                            @Override
                            public void progress(String container, ScrubReport report) {
                                System.out.println("PAGE " + report.keysChecked());
                                System.out.flush();
                            }
                        }));
            }
            System.err.println("the scrub finished before it was killed");
        } catch (Throwable t) {
            t.printStackTrace();
        }
        System.exit(1);
    }
}
