/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * f=1 over the three public clouds — AWS S3, Azure Blob Storage and Google Cloud Storage — with metadata on a
 * ZooKeeper ensemble (README, "Real public clouds"). Secrets come from the environment, never from code:
 * {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY} (or any AWS default credential), {@code AZURE_ACCOUNT} and
 * {@code AZURE_KEY}, {@code GOOGLE_APPLICATION_CREDENTIALS}; buckets and the ensemble from arguments:
 * {@code java ... PublicCloudsExample zk1:2181,zk2:2181,zk3:2181 s3-bucket azure-container gcs-bucket gcp-project}.
 */
public final class PublicCloudsExample {
    private PublicCloudsExample() {
    }

    /** Runs the example; see the class comment for the arguments and environment. */
    public static void main(String[] args) {
        if (args.length < 5) {
            System.err.println("usage: PublicCloudsExample <zookeeper-connect> <s3-bucket> <azure-container>"
                    + " <gcs-bucket> <gcp-project>");
            System.exit(2);
        }
        HybrisConfig config = HybrisConfig.builder()
                .f(1)
                .probeOnOpen(true) // rank the clouds by latency before the first call
                .metadataStore("zookeeper", Map.of("connect", args[0]))
                .cloud("aws", "s3", Map.of("bucket", args[1], "region", System.getenv().getOrDefault("AWS_REGION",
                        "us-east-1")))
                .cloud("azure", "azure", Map.of("container", args[2],
                        "account", System.getenv().getOrDefault("AZURE_ACCOUNT", ""),
                        "key", System.getenv().getOrDefault("AZURE_KEY", "")))
                .cloud("gcp", "gcs", Map.of("bucket", args[3], "project", args[4]))
                .build();
        try (Hybris hybris = Hybris.open(config)) {
            hybris.put("docs", "hello.txt", "hello, three clouds".getBytes(StandardCharsets.UTF_8));
            System.out.println(hybris.describe("docs", "hello.txt").orElseThrow());
        }
    }
}
