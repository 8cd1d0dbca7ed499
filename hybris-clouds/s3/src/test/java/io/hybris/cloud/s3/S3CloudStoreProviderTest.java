/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.CloudStoreProvider;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

/**
 * The {@code s3} provider: option parsing and validation (no server needed), bucket creation, prefix isolation
 * and a {@link Hybris} client configured purely from properties, against MinIO.
 */
class S3CloudStoreProviderTest {
    private final List<String> buckets = new ArrayList<>();
    private Minio minio;

    @AfterEach
    void deleteBuckets() {
        if (minio != null) {
            buckets.forEach(minio::deleteBucket);
            minio.close();
        }
    }

    private Minio minio() {
        if (minio == null) {
            minio = Minio.require();
        }
        return minio;
    }

    private String freshBucket() {
        String bucket = Minio.freshBucket();
        buckets.add(bucket);
        return bucket;
    }

    private static CloudStore create(Map<String, String> options) {
        return new S3CloudStoreProvider().create("s3a", new ProviderOptions("hybris.cloud.s3a.", options));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theProviderIsFoundByServiceLoaderUnderTypeS3() {
        assertThat(ServiceLoader.load(CloudStoreProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.type().equals("s3")).toList())
                .singleElement().isInstanceOf(S3CloudStoreProvider.class)
                .satisfies(p -> assertThat(p.optionNames()).contains("endpoint", "region", "bucket", "prefix",
                        "access-key", "secret-key", "path-style", "connect-timeout", "request-timeout", "retries",
                        "create-bucket", "max-connections"));
    }

    @Test
    void invalidOrMissingOptionsAreRejectedNamingTheProperty() {
        Map<String, String> valid = Map.of("bucket", "some-bucket", "endpoint", "http://127.0.0.1:1");
        assertThatThrownBy(() -> create(Map.of()))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.bucket");
        assertThatThrownBy(() -> create(with(valid, "bucket", "a/b")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.bucket=a/b");
        assertThatThrownBy(() -> create(with(valid, "endpoint", "ftp://host")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.endpoint=ftp://host");
        assertThatThrownBy(() -> create(with(valid, "endpoint", "http://host:9000/bucket")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.endpoint").hasMessageContaining("must not have a path");
        assertThatThrownBy(() -> create(with(valid, "endpoint", "http://bad host")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.endpoint");
        assertThatThrownBy(() -> create(with(valid, "access-key", "AKIA")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.secret-key").hasMessageContaining("only access-key is set");
        assertThatThrownBy(() -> create(with(valid, "request-timeout", "soon")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.request-timeout");
        assertThatThrownBy(() -> create(with(valid, "connect-timeout", "0s")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.connect-timeout");
        assertThatThrownBy(() -> create(with(valid, "retries", "-1")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.retries=-1");
        assertThatThrownBy(() -> create(with(valid, "max-connections", "0")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.max-connections=0");
        assertThatThrownBy(() -> create(with(valid, "create-bucket", "yes")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.create-bucket");
        assertThatThrownBy(() -> create(with(valid, "prefix", "/abs")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.prefix=/abs");
        assertThatThrownBy(() -> create(with(valid, "prefix", "a/../b")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.s3a.prefix");
        assertThatThrownBy(() -> create(with(valid, "trust-store", "/no/such/trust-store.p12")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.trust-store=/no/such/trust-store.p12");
    }

    @Test
    void aTrustStoreThatIsNotOneIsRejectedNamingIt(@TempDir Path dir) throws Exception {
        Path notAStore = Files.writeString(dir.resolve("ca.p12"), "not a key store");
        assertThatThrownBy(() -> create(Map.of("bucket", "some-bucket", "endpoint", "https://127.0.0.1:1",
                "trust-store", notAStore.toString())))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.trust-store=" + notAStore);
    }

    @Test
    void anUnknownOptionIsRejectedByHybrisNamingIt() {
        assertThatThrownBy(() -> Hybris.builder()
                .metadataStore("memory", Map.of())
                .cloud("s3a", "s3", Map.of("bucket", "b-b-b", "acess-key", "x"))
                .cloud("m1", "memory", Map.of())
                .build())
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.s3a.acess-key");
    }

    @Test
    void aMissingBucketFailsStartUpNamingItUnlessCreateBucketIsSet() {
        Minio m = minio();
        String bucket = freshBucket();
        Map<String, String> options = Map.of("endpoint", m.endpoint().toString(), "bucket", bucket,
                "access-key", m.accessKey(), "secret-key", m.secretKey());

        assertThatThrownBy(() -> create(options))
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("bucket '" + bucket + "' does not exist")
                .hasMessageContaining("hybris.cloud.s3a.create-bucket=true");
        assertThat(m.bucketExists(bucket)).isFalse();

        try (CloudStore created = create(with(options, "create-bucket", "true"))) {
            created.put("hybris/c/k#1_a", bytes("in a new bucket"));
        }
        assertThat(m.bucketExists(bucket)).isTrue();
        try (CloudStore existing = create(options);
             CloudStore again = create(with(options, "create-bucket", "true"))) {
            assertThat(existing.get("hybris/c/k#1_a", 100)).hasValueSatisfying(
                    v -> assertThat(v).isEqualTo(bytes("in a new bucket")));
            assertThat(again.list("hybris/")).extracting(CloudObject::key).containsExactly("hybris/c/k#1_a");
        }
    }

    @Test
    void storesWithDifferentPrefixesInOneBucketDoNotSeeEachOther() {
        Minio m = minio();
        String bucket = freshBucket();
        try (S3CloudStore a = m.store("a", bucket).prefix("tenant-a").createBucket(true).build();
             S3CloudStore b = m.store("b", bucket).prefix("tenant-ab/").build();
             S3CloudStore whole = m.store("whole", bucket).build()) {
            assertThat(a.prefix()).isEqualTo("tenant-a/");
            a.put("hybris/c/k#1_x", bytes("from a"));
            b.put("hybris/c/k#1_x", bytes("from b, longer"));
            b.put("hybris/c/only-b#1_x", bytes("b"));

            assertThat(a.get("hybris/c/k#1_x", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from a")));
            assertThat(b.get("hybris/c/k#1_x", 100)).hasValueSatisfying(
                    v -> assertThat(v).isEqualTo(bytes("from b, longer")));
            assertThat(a.get("hybris/c/only-b#1_x", 100)).isEmpty();
            assertThat(a.list("")).extracting(CloudObject::key, CloudObject::size)
                    .containsExactly(tuple("hybris/c/k#1_x", 6L));
            assertThat(b.list("hybris/c/")).extracting(CloudObject::key)
                    .containsExactlyInAnyOrder("hybris/c/k#1_x", "hybris/c/only-b#1_x");
            assertThat(m.rawKeys(bucket)).containsExactlyInAnyOrder("tenant-a/hybris/c/k#1_x",
                    "tenant-ab/hybris/c/k#1_x", "tenant-ab/hybris/c/only-b#1_x");
            assertThat(whole.list("tenant-a/")).extracting(CloudObject::key)
                    .containsExactly("tenant-a/hybris/c/k#1_x");

            a.delete("hybris/c/k#1_x");
            assertThat(b.get("hybris/c/k#1_x", 100)).isPresent();
            assertThat(a.list("")).isEmpty();
        }
    }

    @Test
    void hybrisOpenedFromPropertiesStoresOnS3Clouds(@TempDir Path dir) throws Exception {
        Minio m = minio();
        String bucket = freshBucket();
        m.createBucket(bucket);
        Path file = dir.resolve("hybris.properties");
        List<String> lines = new ArrayList<>(List.of(
                "hybris.f=1",
                "hybris.client-id=props-client",
                "hybris.rmds.type=memory"));
        for (String id : List.of("s3a", "s3b", "s3c")) {
            lines.add("hybris.cloud." + id + ".type=s3");
            lines.add("hybris.cloud." + id + ".endpoint=" + m.endpoint());
            lines.add("hybris.cloud." + id + ".bucket=" + bucket);
            lines.add("hybris.cloud." + id + ".prefix=" + id);
            lines.add("hybris.cloud." + id + ".request-timeout=20s");
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        // the keys come from the environment, as secrets should
        Map<String, String> env = new HashMap<>();
        for (String id : List.of("S3A", "S3B", "S3C")) {
            env.put("HYBRIS_CLOUD_" + id + "_ACCESS_KEY", m.accessKey());
            env.put("HYBRIS_CLOUD_" + id + "_SECRET_KEY", m.secretKey());
        }

        try (Hybris h = Hybris.open(HybrisConfig.fromProperties(file, env))) {
            h.put("docs", "readme", bytes("hello from s3"));
            assertThat(h.get("docs", "readme")).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("hello from s3")));
            assertThat(h.describe("docs", "readme").orElseThrow().clientId()).isEqualTo("props-client");
            assertThat(h.list("docs")).containsExactly("readme");
        }
        List<String> stored = m.rawKeys(bucket);
        assertThat(stored).isNotEmpty().allSatisfy(k -> assertThat(k).matches("s3[abc]/.*docs/readme#1_props-client\\.[0-9a-z]+"));
        assertThat(stored.size()).isBetween(2, 3);
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> m = new HashMap<>(base);
        m.put(key, value);
        return m;
    }
}
