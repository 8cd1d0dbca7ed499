/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisListener;
import io.hybris.VersionInfo;
import io.hybris.cloud.DirectoryCloudStore;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The quickstart on the embedded default: an in-process ZooKeeper for metadata and three directories standing
 * in for three clouds, tolerating one faulty cloud (f=1). It puts, gets, lists, runs a transactional put, shows
 * which clouds hold a value, then corrupts each cloud's copy in turn (as a malicious cloud would) and shows that
 * reads still return the right value.
 *
 * <pre>{@code
 * mvn -pl examples exec:java                   # data under target/quickstart-data
 * mvn -pl examples exec:java -Dexec.args=/tmp/hybris-demo
 * }</pre>
 */
public final class Quickstart {
    private Quickstart() {
    }

    /** Runs the quickstart; the optional argument is the data directory. */
    public static void main(String[] args) {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/quickstart-data").toAbsolutePath();
        run(dir, System.out);
    }

    /** Runs the quickstart with data under {@code dir}, printing to {@code out}. */
    public static void run(Path dir, PrintStream out) {
        List<CloudStore> clouds = List.of(
                new DirectoryCloudStore("disk1", dir.resolve("cloud-disk1")),
                new DirectoryCloudStore("disk2", dir.resolve("cloud-disk2")),
                new DirectoryCloudStore("disk3", dir.resolve("cloud-disk3")));
        HybrisConfig.Builder builder = Hybris.builder()
                .f(1)
                .metadataStore("embedded-zookeeper", Map.of("data-dir", dir.resolve("zookeeper").toString()))
                .deadline(Duration.ofSeconds(30))
                .listener(new HybrisListener() {
                    @Override
                    public void cloudOperation(String cloudId, CloudOperation op, String objectKey, Outcome outcome,
                                               Duration latency) {
                        if (op == CloudOperation.GET && outcome != Outcome.OK) {
                            out.printf("   ! cloud %s answered the GET with %s; trying the next cloud%n", cloudId,
                                    outcome);
                        }
                    }
                });
        clouds.forEach(builder::cloud);

        out.println("Hybris quickstart: embedded ZooKeeper + 3 directory clouds under " + dir + ", f=1");
        try (Hybris hybris = Hybris.open(builder.build())) {
            byte[] cat = "a picture of a cat".getBytes(StandardCharsets.UTF_8);
            hybris.put("photos", "cat.jpg", cat);
            out.println("put    photos/cat.jpg (" + cat.length + " bytes)");
            out.println("get    photos/cat.jpg -> " + text(hybris.get("photos", "cat.jpg")));

            Map<String, byte[]> album = new LinkedHashMap<>();
            album.put("dog.jpg", "a picture of a dog".getBytes(StandardCharsets.UTF_8));
            album.put("owl.jpg", "a picture of an owl".getBytes(StandardCharsets.UTF_8));
            hybris.tput("photos", album);
            out.println("tput   photos/{dog.jpg, owl.jpg}: both visible atomically");
            out.println("list   photos -> " + hybris.list("photos"));

            VersionInfo info = hybris.describe("photos", "cat.jpg").orElseThrow();
            out.println("where  photos/cat.jpg version " + info.version() + " is on clouds "
                    + info.clouds() + ", sha256 " + info.sha256Hex().substring(0, 16) + "...");

            for (String cloudId : info.clouds()) {
                CloudStore cloud = clouds.stream().filter(c -> c.id().equals(cloudId)).findFirst().orElseThrow();
                String objectKey = cloud.list("hybris/photos/cat.jpg#").stream().map(CloudObject::key)
                        .findFirst().orElseThrow();
                byte[] good = cloud.get(objectKey, Long.MAX_VALUE).orElseThrow();
                cloud.put(objectKey, "a picture of a rat".getBytes(StandardCharsets.UTF_8)); // same size, wrong bytes
                out.println("fault  cloud " + cloudId + " now serves corrupted bytes for photos/cat.jpg");
                out.println("get    photos/cat.jpg -> " + text(hybris.get("photos", "cat.jpg"))
                        + "  (still correct: a copy failing the hash check is never returned)");
                cloud.put(objectKey, good);
            }

            hybris.delete("photos", "cat.jpg");
            out.println("delete photos/cat.jpg; get -> " + text(hybris.get("photos", "cat.jpg")));
            out.println("list   photos -> " + hybris.list("photos"));
        }
        out.println("done.");
    }

    private static String text(Optional<byte[]> value) {
        return value.map(v -> "\"" + new String(v, StandardCharsets.UTF_8) + "\"").orElse("(absent)");
    }
}
