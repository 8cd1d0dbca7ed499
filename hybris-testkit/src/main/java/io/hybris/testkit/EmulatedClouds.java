/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.ProviderOptions;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The three emulated public clouds of the test environment — S3 on MinIO, Azure Blob on Azurite, GCS on
 * fake-gcs-server — each reached through its toxiproxy proxy, so tests and benchmarks can add latency to one
 * cloud or cut it off. Stores are created through the drivers' {@link CloudStoreProvider}s from the same options a
 * user writes in {@code hybris.cloud.<id>.*}, so the configuration path is what is tested.
 */
public final class EmulatedClouds {
    /** The bucket (container) every store uses; each user of it isolates itself with an object-key prefix. */
    public static final String BUCKET = "hybris-e2e";

    /** The three providers, in the order {@link #store} indexes them. */
    public enum Kind {
        /** MinIO through proxy {@code s3}. */
        S3("s3"),
        /** Azurite through proxy {@code azure}. */
        AZURE("azure"),
        /** fake-gcs-server through proxy {@code gcs}. */
        GCS("gcs");

        private final String type;

        Kind(String type) {
            this.type = type;
        }

        /** The driver's {@code hybris.cloud.<id>.type} and the toxiproxy proxy's name. */
        public String type() {
            return type;
        }
    }

    private final TestEnvironment env;
    private final Toxiproxy toxiproxy;

    /** The clouds of a running test environment. */
    public EmulatedClouds(TestEnvironment env) {
        this.env = env;
        this.toxiproxy = new Toxiproxy(env.toxiproxyApi());
    }

    /** The proxy in front of {@code kind}'s emulator, reset to enabled with no latency. */
    public Toxiproxy.Proxy proxy(Kind kind) {
        return toxiproxy.existing(kind.type(), proxyEndpoint(kind));
    }

    private URI proxyEndpoint(Kind kind) {
        return switch (kind) {
            case S3 -> env.minioProxy();
            case AZURE -> env.azuriteProxy();
            case GCS -> env.gcsProxy();
        };
    }

    /**
     * The driver options ({@code hybris.cloud.<id>.*} without the prefix) for {@code kind} through its proxy,
     * with objects under {@code prefix} in {@link #BUCKET} (created if missing).
     */
    public Map<String, String> options(Kind kind, String prefix) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("endpoint", proxyEndpoint(kind).toString());
        o.put("prefix", prefix);
        o.put("create-bucket", "true");
        o.put("retries", "0");
        switch (kind) {
            case S3 -> {
                o.put("bucket", BUCKET);
                o.put("region", "us-east-1");
                o.put("access-key", env.minioAccessKey());
                o.put("secret-key", env.minioSecretKey());
            }
            case AZURE -> {
                o.put("container", BUCKET);
                o.put("account", env.azuriteAccount());
                o.put("key", env.azuriteKey());
            }
            case GCS -> {
                o.put("bucket", BUCKET);
                o.put("project", env.gcsProject());
                o.put("anonymous", "true");
            }
            default -> throw new AssertionError(kind);
        }
        return o;
    }

    /** A store with id {@code cloudId} for {@code kind}, made by its provider from {@link #options}. */
    public CloudStore store(String cloudId, Kind kind, String prefix) {
        CloudStoreProvider provider = ServiceLoader.load(CloudStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.type().equals(kind.type())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no CloudStoreProvider of type " + kind.type()));
        return provider.create(cloudId, new ProviderOptions("hybris.cloud." + cloudId + ".", options(kind, prefix)));
    }

    /** Stores {@code c0, c1, c2} on S3, Azure and GCS, all under {@code prefix}. */
    public List<CloudStore> threeStores(String prefix) {
        return List.of(store("c0", Kind.S3, prefix), store("c1", Kind.AZURE, prefix), store("c2", Kind.GCS, prefix));
    }

    /** The same three clouds as Hybris properties ({@code hybris.cloud.c0.type=s3}, ...). */
    public Map<String, String> hybrisProperties(String prefix) {
        Map<String, String> p = new LinkedHashMap<>();
        Kind[] kinds = Kind.values();
        for (int i = 0; i < kinds.length; i++) {
            String id = "c" + i;
            p.put("hybris.cloud." + id + ".type", kinds[i].type());
            options(kinds[i], prefix).forEach((k, v) -> p.put("hybris.cloud." + id + "." + k, v));
        }
        return p;
    }
}
