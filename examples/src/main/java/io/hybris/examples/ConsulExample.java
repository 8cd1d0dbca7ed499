/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.PutOptions;
import io.hybris.VersionInfo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Metadata on Consul (docs/consul.md) instead of ZooKeeper, with a conditional read-modify-write: the counter is
 * incremented only if nobody wrote it since it was read. Needs a Consul agent:
 * {@code java ... ConsulExample 127.0.0.1:8500 [data-dir]} (the clouds are three local directories).
 */
public final class ConsulExample {
    private ConsulExample() {
    }

    /** Runs the example against the Consul agent at {@code args[0]} ({@code host:port}). */
    public static void main(String[] args) {
        String consul = args.length > 0 ? args[0] : "127.0.0.1:8500";
        Path dir = Path.of(args.length > 1 ? args[1] : "target/consul-example").toAbsolutePath();
        HybrisConfig config = HybrisConfig.builder()
                .f(1)
                .metadataStore("consul", Map.of("address", consul, "key-prefix", "hybris-example"))
                .cloud("disk1", "directory", Map.of("path", dir.resolve("c1").toString()))
                .cloud("disk2", "directory", Map.of("path", dir.resolve("c2").toString()))
                .cloud("disk3", "directory", Map.of("path", dir.resolve("c3").toString()))
                .build();
        try (Hybris hybris = Hybris.open(config)) {
            hybris.put("counters", "visits", "0".getBytes(StandardCharsets.UTF_8), PutOptions.ifAbsent());
            VersionInfo read = hybris.describe("counters", "visits").orElseThrow();
            long n = Long.parseLong(new String(hybris.get("counters", "visits").orElseThrow(), StandardCharsets.UTF_8));
            hybris.put("counters", "visits", Long.toString(n + 1).getBytes(StandardCharsets.UTF_8),
                    PutOptions.ifMatch(read.version())); // PreconditionFailedException if someone else won
            System.out.println("visits: " + (n + 1));
        }
    }
}
