/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.rmds.zookeeper.ZooKeeperMetadataStore;
import io.hybris.testkit.GatedMetadataStore;
import io.hybris.testkit.SlowCloudStore;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The child JVM of {@link KilledUploadTest}: a client on a shared ZooKeeper and three shared directory clouds (each
 * put delayed a little, so uploads are in flight whenever it is killed) that puts a large value into key
 * {@code big/stream} in small chunks, then waits to be killed. Two modes:
 * <ul>
 * <li>{@code stream}: a stream of unknown length that never ends; prints {@code SUPPLIED <bytes>} once it has
 *   handed the put {@code bytes} bytes, and goes on supplying;</li>
 * <li>{@code commit}: a stream of {@code bytes} bytes, whose metadata update is held on the wire by a
 *   {@link GatedMetadataStore} that never opens; prints {@code HELD} once the update is held, every chunk and the
 *   manifest being stored by then.</li>
 * </ul>
 * Exit code 1 (with a stack trace on standard error) means the put ended, which it must not.
 *
 * <p>Arguments: mode, ZooKeeper connect string, ZooKeeper root, clouds directory, client id, chunk size, bytes.
 */
public final class KilledUploadChild {
    /** How long each chunk upload waits before it reaches the directory. */
    static final Duration PUT_DELAY = Duration.ofMillis(20);

    private KilledUploadChild() {
    }

    public static void main(String[] args) {
        ParentWatch.haltWhenParentDies();
        try {
            run(args);
            System.err.println("the endless put returned");
        } catch (Throwable t) {
            t.printStackTrace();
        }
        System.exit(1);
    }

    private static void run(String[] args) throws Exception {
        String mode = args[0];
        Path clouds = Path.of(args[3]);
        int chunkSize = Integer.parseInt(args[5]);
        long bytes = Long.parseLong(args[6]);
        GatedMetadataStore gate = new GatedMetadataStore(ZooKeeperMetadataStore.builder().connect(args[1])
                .root(args[2]).build());
        if (mode.equals("stream")) {
            gate.open();
        }
        HybrisConfig.Builder builder = Hybris.builder().f(1).clientId(args[4]).metadataStore(gate)
                .chunkSize(chunkSize).chunkThreshold(chunkSize);
        for (String id : KilledUploadTest.CLOUDS) {
            builder.cloud(SlowCloudStore.ofPuts(new DirectoryCloudStore(id, clouds.resolve(id)), PUT_DELAY));
        }
        try (Hybris hybris = Hybris.open(builder.build())) {
            if (mode.equals("stream")) {
                hybris.put("big", "stream", new Announcing(new PseudoRandomStream(7, Long.MAX_VALUE), bytes), -1);
                return;
            }
            Thread put = new Thread(() -> hybris.put("big", "stream", new PseudoRandomStream(7, bytes), bytes));
            put.start();
            if (!gate.awaitHeld(1, Duration.ofSeconds(60))) {
                throw new IllegalStateException("the put's metadata update was not held within 60 s");
            }
            System.out.println("HELD");
            System.out.flush();
            put.join();
        }
    }

    /** Passes a stream on and prints {@code SUPPLIED <bytes>} once when {@code after} bytes have been read. */
    private static final class Announcing extends InputStream {
        private final PseudoRandomStream in;
        private final long after;
        private boolean announced;

        Announcing(PseudoRandomStream in, long after) {
            this.in = in;
            this.after = after;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = in.read(b, off, len);
            if (!announced && in.position() >= after) {
                announced = true;
                System.out.println("SUPPLIED " + in.position());
                System.out.flush();
            }
            return n;
        }
    }
}
