/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The campaign's generator: worker threads, several per client, that run random PUT / GET / DELETE / TPUT and
 * uploads in parts (two parts, the second first, then one completion) on a
 * small set of keys (so the same key is written concurrently by threads of one client and by different
 * clients) and record every call in the {@link Recorder}. A worker keeps going whatever a call throws or
 * whenever it is interrupted; {@link #stop} ends them.
 */
final class Workers {
    /** Container every campaign key lives in. */
    static final String CONTAINER = "campaign";

    private final ClientPool clients;
    private final Recorder recorder;
    private final List<String> keys;
    private final String idPrefix;
    private final AtomicLong ids;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    Workers(ClientPool clients, Recorder recorder, List<String> keys, String idPrefix, AtomicLong ids, int count,
            long seed) {
        this.clients = clients;
        this.recorder = recorder;
        this.keys = List.copyOf(keys);
        this.idPrefix = idPrefix;
        this.ids = ids;
        for (int i = 0; i < count; i++) {
            int worker = i;
            SplittableRandom random = new SplittableRandom(seed * 31 + i);
            Thread t = new Thread(() -> loop(worker, random), "campaign-worker-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
    }

    /** The worker threads (the {@link InterruptNemesis} interrupts them). */
    List<Thread> threads() {
        return threads;
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Stops every worker after its current call and waits for them (calls end within their deadline). */
    void stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(ClientConfig.DEADLINE.multipliedBy(3).toMillis());
            if (t.isAlive()) {
                recorder.tallyViolation(t.getName() + " did not end within three call deadlines after stop");
            }
        }
    }

    private void loop(int worker, SplittableRandom random) {
        while (running) {
            Hybris client = clients.client(worker % clients.size());
            String key = keys.get(random.nextInt(keys.size()));
            int dice = random.nextInt(100);
            if (dice < 40) {
                String id = nextId();
                write("put", worker, List.of(key), List.of(id), () -> client.put(Workers.CONTAINER, key,
                        CampaignValues.bytes(id, Recorder.MAX_PADDING)));
            } else if (dice < 47) {
                List<String> none = new ArrayList<>();
                none.add(null);
                write("delete", worker, List.of(key), none, () -> client.delete(CONTAINER, key));
            } else if (dice < 60) {
                Map<String, byte[]> values = new LinkedHashMap<>();
                List<String> written = new ArrayList<>();
                List<String> writtenIds = new ArrayList<>();
                int n = 2 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    String k = keys.get(random.nextInt(keys.size()));
                    if (!values.containsKey(k)) {
                        String id = nextId();
                        values.put(k, CampaignValues.bytes(id, Recorder.MAX_PADDING));
                        written.add(k);
                        writtenIds.add(id);
                    }
                }
                write("tput", worker, written, writtenIds, () -> client.tput(CONTAINER, values));
            } else if (dice < 66) {
                String id = nextId();
                byte[] v = CampaignValues.bytes(id, Recorder.MAX_PADDING);
                write("parts", worker, List.of(key), List.of(id), () -> uploadInParts(client, key, v));
            } else {
                long t0 = System.nanoTime();
                try {
                    var value = client.get(CONTAINER, key);
                    recorder.readOk(worker, key, value, t0, System.nanoTime());
                } catch (Throwable e) {
                    recorder.readFailed(e);
                }
            }
            Thread.interrupted(); // an interrupt that arrived after a call returned is spent here
        }
    }

    /** The value as an upload in two parts, the second uploaded first, committed at once. */
    private static void uploadInParts(Hybris client, String key, byte[] v) {
        PartUploads parts = PartUploads.of(client);
        PartUpload upload = parts.start(CONTAINER, key);
        int half = v.length / 2;
        UploadedPart second = parts.upload(upload, 2, new ByteArrayInputStream(v, half, v.length - half),
                v.length - half);
        UploadedPart first = parts.upload(upload, 1, new ByteArrayInputStream(v, 0, half), half);
        parts.complete(upload, List.of(first, second), PutOptions.none());
    }

    private void write(String kind, int worker, List<String> keys, List<String> ids, Runnable call) {
        long t0 = System.nanoTime();
        try {
            call.run();
            recorder.writeOk(kind, worker, keys, ids, t0, System.nanoTime());
        } catch (Throwable e) {
            recorder.writeFailed(kind, worker, keys, ids, t0, e);
        }
    }

    private String nextId() {
        return idPrefix + ids.incrementAndGet();
    }
}
