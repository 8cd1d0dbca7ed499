/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import io.hybris.Hybris;
import io.hybris.HybrisException;
import io.hybris.NotEnoughCloudsException;
import io.hybris.TransactionAbortedException;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A client in its own JVM, for the {@link ProcessKillNemesis} to SIGKILL mid-PUT or mid-TPUT. It writes random
 * keys until killed and reports on stdout, one flushed line per event, with {@link System#nanoTime()} (on Linux
 * the same monotonic clock in every JVM of the machine, which the parent checks at start):
 * <pre>
 * T nanoTime                                  started
 * I n nanoTime put|tput key=id[,key=id...]    call n invoked
 * A n nanoTime                                call n returned
 * F n definite|unknown|undocumented class     call n threw
 * </pre>
 * Arguments: the Hybris properties file, the keys (comma-separated), the id prefix, the random seed.
 */
public final class ChildWriter {
    private ChildWriter() {
    }

    /** Runs until killed. */
    public static void main(String[] args) {
        Path properties = Path.of(args[0]);
        List<String> keys = List.of(args[1].split(","));
        String idPrefix = args[2];
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
        PrintStream out = System.out;
        try (Hybris hybris = Hybris.fromProperties(properties)) {
            out.println("T " + System.nanoTime());
            out.flush();
            for (long n = 0; ; n++) {
                Map<String, byte[]> values = new LinkedHashMap<>();
                List<String> pairs = new ArrayList<>();
                int count = random.nextInt(4) == 0 ? 2 : 1;
                for (int i = 0; i < count; i++) {
                    String key = keys.get(random.nextInt(keys.size()));
                    if (!values.containsKey(key)) {
                        String id = idPrefix + n + "-" + i;
                        values.put(key, CampaignValues.bytes(id, Recorder.MAX_PADDING));
                        pairs.add(key + "=" + id);
                    }
                }
                String kind = values.size() > 1 ? "tput" : "put";
                out.println("I " + n + " " + System.nanoTime() + " " + kind + " " + String.join(",", pairs));
                out.flush();
                try {
                    if (values.size() > 1) {
                        hybris.tput(Workers.CONTAINER, values);
                    } else {
                        Map.Entry<String, byte[]> e = values.entrySet().iterator().next();
                        hybris.put(Workers.CONTAINER, e.getKey(), e.getValue());
                    }
                    out.println("A " + n + " " + System.nanoTime());
                } catch (TransactionAbortedException | NotEnoughCloudsException e) {
                    out.println("F " + n + " definite " + e.getClass().getSimpleName());
                } catch (HybrisException e) {
                    out.println("F " + n + " unknown " + e.getClass().getSimpleName());
                } catch (RuntimeException e) {
                    out.println("F " + n + " undocumented " + e);
                }
                out.flush();
            }
        }
    }
}
