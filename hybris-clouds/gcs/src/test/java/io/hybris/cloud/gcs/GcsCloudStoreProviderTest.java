/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.HybrisConfigurationException;
import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.ProviderOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Options, bucket creation, prefixes and a whole Hybris client configured with {@code type=gcs}. */
@Timeout(120)
class GcsCloudStoreProviderTest {
    private static GcsEmulator emulator;

    @BeforeAll
    static void emulator() {
        emulator = GcsEmulator.require();
    }

    private static CloudStore create(Map<String, String> options) {
        return new GcsCloudStoreProvider().create("g1", new ProviderOptions("hybris.cloud.g1.", options));
    }

    private static Map<String, String> emulatorOptions(String bucket) {
        Map<String, String> o = new HashMap<>();
        o.put("endpoint", emulator.endpoint().toString());
        o.put("project", emulator.project());
        o.put("anonymous", "true");
        o.put("bucket", bucket);
        return o;
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> o = new HashMap<>(base);
        o.put(key, value);
        return o;
    }

    @Test
    void theProviderIsFoundByTypeAndListsItsOptions() {
        assertThat(ServiceLoader.load(io.hybris.spi.CloudStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.type().equals("gcs")).toList())
                .singleElement().isInstanceOf(GcsCloudStoreProvider.class);
        assertThat(new GcsCloudStoreProvider().optionNames()).containsExactlyInAnyOrder("endpoint", "project",
                "bucket", "prefix", "credentials-file", "anonymous", "connect-timeout", "request-timeout",
                "retries", "create-bucket", "trust-store", "trust-store-password");
    }

    @Test
    void badOrMissingOptionsNameTheKey() {
        Map<String, String> ok = emulatorOptions("some-bucket");
        Map<String, String> noBucket = new HashMap<>(ok);
        noBucket.remove("bucket");
        assertThatThrownBy(() -> create(noBucket)).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.bucket is required");
        assertThatThrownBy(() -> create(with(ok, "bucket", "Bad_Bucket!")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.bucket=Bad_Bucket!").hasMessageContaining("not a valid");
        assertThatThrownBy(() -> create(with(ok, "connect-timeout", "soon")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.connect-timeout");
        assertThatThrownBy(() -> create(with(ok, "request-timeout", "0s")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.request-timeout");
        assertThatThrownBy(() -> create(with(ok, "retries", "11")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.retries=11");
        assertThatThrownBy(() -> create(with(ok, "retries", "many")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.retries");
        assertThatThrownBy(() -> create(with(ok, "anonymous", "yes please")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.anonymous");
        assertThatThrownBy(() -> create(with(ok, "endpoint", "ftp://127.0.0.1:1")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.endpoint=ftp://127.0.0.1:1");
        assertThatThrownBy(() -> create(with(ok, "endpoint", "http://bad host/")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.endpoint");
        assertThatThrownBy(() -> create(with(ok, "prefix", "/abs/")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.prefix=/abs/");
        assertThatThrownBy(() -> create(with(ok, "prefix", "a/../b")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.prefix=a/../b");
        assertThatThrownBy(() -> create(with(ok, "prefix", "a//b")))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("hybris.cloud.g1.prefix=a//b");
        assertThatThrownBy(() -> create(with(ok, "credentials-file", "/nonexistent/key.json")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.anonymous and hybris.cloud.g1.credentials-file");
        assertThatThrownBy(() -> create(with(with(ok, "anonymous", "false"), "credentials-file", "/nonexistent/key.json")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.credentials-file=/nonexistent/key.json cannot be read");
        assertThatThrownBy(() -> create(with(ok, "trust-store", "/nonexistent/trust.p12")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.trust-store=/nonexistent/trust.p12");
        assertThatThrownBy(() -> create(with(ok, "trust-store-password", "secret")))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("hybris.cloud.g1.trust-store-password is set but hybris.cloud.g1.trust-store is not");
    }

    @Test
    void anUnknownOptionIsRejectedByName(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hybris.properties");
        Files.writeString(file, String.join("\n", "hybris.f=0", "hybris.rmds.type=memory",
                "hybris.cloud.g1.type=gcs", "hybris.cloud.g1.bucket=b-1", "hybris.cloud.g1.bukcet=typo"));
        assertThatThrownBy(() -> HybrisConfig.fromProperties(file, Map.of()))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("unknown option hybris.cloud.g1.bukcet");
    }

    @Test
    void createBucketFalseRefusesAMissingBucketAndTrueCreatesIt() {
        String bucket = GcsEmulator.freshBucket("create");
        Map<String, String> options = emulatorOptions(bucket);

        assertThatThrownBy(() -> create(options)).isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("bucket '" + bucket + "' does not exist")
                .hasMessageContaining("create-bucket=true");
        assertThatThrownBy(() -> create(with(options, "create-bucket", "false")))
                .isInstanceOf(PermanentCloudException.class).hasMessageContaining(bucket);

        try (CloudStore created = create(with(options, "create-bucket", "true"))) {
            created.put("hybris/c/k#1_a", bytes("in the new bucket"));
        }
        // now it exists: without create-bucket the check passes and the object is there
        try (CloudStore existing = create(options);
             CloudStore again = create(with(options, "create-bucket", "true"))) {
            assertThat(existing.get("hybris/c/k#1_a", 100)).hasValueSatisfying(
                    v -> assertThat(v).isEqualTo(bytes("in the new bucket")));
            assertThat(again.list("hybris/")).extracting(CloudObject::key).containsExactly("hybris/c/k#1_a");
        }
    }

    @Test
    void prefixesIsolateStoresInOneBucketAndAreStrippedInListings() {
        String bucket = GcsEmulator.freshBucket("prefix");
        Map<String, String> options = with(emulatorOptions(bucket), "create-bucket", "true");
        try (CloudStore whole = create(options);
             CloudStore a = create(with(options, "prefix", "team-a/"));
             CloudStore b = create(with(options, "prefix", "team-b"))) {
            assertThat(((GcsCloudStore) b).prefix()).isEqualTo("team-b/");
            a.put("hybris/c/k#1_x", bytes("from a"));
            b.put("hybris/c/k#1_x", bytes("from b"));

            assertThat(a.get("hybris/c/k#1_x", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from a")));
            assertThat(b.get("hybris/c/k#1_x", 10)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from b")));
            assertThat(a.list("hybris/")).extracting(CloudObject::key, CloudObject::size)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("hybris/c/k#1_x", 6L));
            assertThat(whole.list("")).extracting(CloudObject::key)
                    .containsExactlyInAnyOrder("team-a/hybris/c/k#1_x", "team-b/hybris/c/k#1_x");

            a.delete("hybris/c/k#1_x");
            assertThat(a.get("hybris/c/k#1_x", 10)).isEmpty();
            assertThat(b.get("hybris/c/k#1_x", 10)).isPresent();
            assertThat(whole.list("")).extracting(CloudObject::key).containsExactly("team-b/hybris/c/k#1_x");
        }
    }

    @Test
    void aHybrisClientOpensFromPropertiesWithGcsClouds(@TempDir Path dir) throws Exception {
        List<String> buckets = List.of(GcsEmulator.freshBucket("hybris"), GcsEmulator.freshBucket("hybris"),
                GcsEmulator.freshBucket("hybris"));
        StringBuilder props = new StringBuilder("hybris.f=1\nhybris.client-id=gcs-client\nhybris.rmds.type=memory\n");
        for (int i = 0; i < 3; i++) {
            String p = "hybris.cloud.gcs" + i + ".";
            props.append(p).append("type=gcs\n").append(p).append("bucket=").append(buckets.get(i)).append('\n')
                    .append(p).append("anonymous=true\n").append(p).append("create-bucket=true\n")
                    .append(p).append("prefix=app/\n").append(p).append("project=").append(emulator.project())
                    .append('\n');
        }
        Path file = dir.resolve("hybris.properties");
        Files.writeString(file, props, StandardCharsets.UTF_8);
        // the endpoint comes from the environment, as deployment-specific settings do
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            env.put("HYBRIS_CLOUD_GCS" + i + "_ENDPOINT", emulator.endpoint().toString());
        }

        try (Hybris hybris = Hybris.open(HybrisConfig.fromProperties(file, env))) {
            hybris.put("photos", "cat.jpg", bytes("meow"));
            assertThat(hybris.get("photos", "cat.jpg")).hasValueSatisfying(
                    v -> assertThat(v).isEqualTo(bytes("meow")));
            assertThat(hybris.list("photos")).containsExactly("cat.jpg");
        }
        // the value is in f+1 = 2 of the three buckets, under the prefix and Hybris's own prefix
        int holding = 0;
        for (String bucket : buckets) {
            try (GcsCloudStore raw = emulator.store("raw", bucket).build()) {
                List<CloudObject> objects = raw.list("app/hybris/");
                if (!objects.isEmpty()) {
                    holding++;
                    assertThat(objects).singleElement().satisfies(o -> {
                        assertThat(o.key()).startsWith("app/hybris/photos/cat.jpg#");
                        assertThat(o.size()).isEqualTo(4L);
                    });
                }
            }
        }
        assertThat(holding).isGreaterThanOrEqualTo(2);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
