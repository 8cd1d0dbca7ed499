/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.sas.AccountSasPermission;
import com.azure.storage.common.sas.AccountSasResourceType;
import com.azure.storage.common.sas.AccountSasService;
import com.azure.storage.common.sas.AccountSasSignatureValues;
import io.hybris.spi.CloudObject;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import io.hybris.testkit.TestEnvironment;
import io.hybris.testkit.Toxiproxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Azure store's own behaviour against Azurite (beyond the {@code CloudStoreContract}): the start-up container
 * check and {@code create-bucket}, prefix isolation, the three ways to authorise, refused and unreachable
 * endpoints, per-attempt timeouts (latency from toxiproxy) and a call on an already interrupted thread. A request
 * interrupted while in flight is tested against a server that holds it open, in {@link AzureBlobErrorMappingTest}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AzureBlobCloudStoreTest {
    private static Azurite azurite;
    private static BlobServiceClient service;
    private static TestEnvironment env;
    private final List<String> containers = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void connect() {
        env = TestEnvironment.require();
        azurite = Azurite.require();
        service = azurite.service();
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        for (String c : containers) {
            service.getBlobContainerClient(c).deleteIfExists();
        }
    }

    private String container() {
        String name = Azurite.freshContainer();
        containers.add(name);
        return name;
    }

    private <T extends AutoCloseable> T closeLater(T c) {
        closeables.add(c);
        return c;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void missingContainerWithoutCreateBucketIsAPermanentErrorNamingItAndCreatesNothing() {
        String name = container();

        assertThatThrownBy(() -> azurite.builder("az", name).build())
                .isInstanceOfSatisfying(PermanentCloudException.class, e -> assertThat(e.cloudId()).isEqualTo("az"))
                .hasMessageContainingAll("container '" + name + "' does not exist", "create it or set",
                        "hybris.cloud.az.create-bucket=true", "HTTP 404", "ContainerNotFound")
                .hasMessageNotContaining("null");
        assertThat(service.getBlobContainerClient(name).exists()).isFalse();
    }

    @Test
    void createBucketCreatesAMissingContainerAndAcceptsAnExistingOne() {
        String name = container();

        closeLater(azurite.builder("az", name).createBucket(true).build())
                .put("hybris/a#1_c", bytes("first"));
        assertThat(service.getBlobContainerClient(name).exists()).isTrue();

        AzureBlobCloudStore again = closeLater(azurite.builder("az", name).createBucket(true).build());
        AzureBlobCloudStore checked = closeLater(azurite.builder("az", name).build());
        assertThat(again.get("hybris/a#1_c", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("first")));
        assertThat(checked.get("hybris/a#1_c", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("first")));
    }

    @Test
    void prefixesIsolateStoresSharingAContainerAndAreStrippedFromListings() {
        String name = container();
        AzureBlobCloudStore a = closeLater(azurite.builder("a", name).prefix("tenant-a").createBucket(true).build());
        AzureBlobCloudStore b = closeLater(azurite.builder("b", name).prefix("tenant-b/").build());
        AzureBlobCloudStore root = closeLater(azurite.builder("root", name).build());

        a.put("hybris/k#1_c", bytes("from a"));
        b.put("hybris/k#1_c", bytes("from b"));
        b.put("hybris/only-b#1_c", bytes("b only"));

        assertThat(a.prefix()).isEqualTo("tenant-a/");
        assertThat(a.get("hybris/k#1_c", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from a")));
        assertThat(b.get("hybris/k#1_c", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from b")));
        assertThat(a.get("hybris/only-b#1_c", 100)).isEmpty();
        assertThat(a.list("hybris/")).extracting(CloudObject::key, CloudObject::size)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("hybris/k#1_c", 6L));
        assertThat(b.list("")).extracting(CloudObject::key)
                .containsExactlyInAnyOrder("hybris/k#1_c", "hybris/only-b#1_c");
        assertThat(root.list("")).extracting(CloudObject::key).containsExactlyInAnyOrder(
                "tenant-a/hybris/k#1_c", "tenant-b/hybris/k#1_c", "tenant-b/hybris/only-b#1_c");
        assertThat(service.getBlobContainerClient(name).listBlobs().stream().map(BlobItem::getName).toList())
                .containsExactlyInAnyOrder("tenant-a/hybris/k#1_c", "tenant-b/hybris/k#1_c",
                        "tenant-b/hybris/only-b#1_c");

        a.delete("hybris/k#1_c");
        assertThat(a.get("hybris/k#1_c", 100)).isEmpty();
        assertThat(b.get("hybris/k#1_c", 100)).hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("from b")));
    }

    @Test
    void listFollowsContinuationMarkersAcrossManyPages() {
        String name = container();
        AzureBlobCloudStore store = closeLater(azurite.builder("az", name).prefix("paged").createBucket(true)
                .listPageSize(7).build());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 52; i++) {
            String key = "hybris/page/item-" + i + "#1_c";
            store.put(key, new byte[i % 3]);
            expected.add(key);
        }
        store.put("hybris/pagex#1_c", bytes("sibling"));

        List<CloudObject> listed = store.list("hybris/page/");

        assertThat(listed).extracting(CloudObject::key).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(listed).allSatisfy(o -> assertThat(o.size()).isEqualTo(
                Integer.parseInt(o.key().replaceAll(".*item-(\\d+)#.*", "$1")) % 3));
        assertThat(store.list("hybris/page")).hasSize(53);
        long pages = service.getBlobContainerClient(name).listBlobs(new ListBlobsOptions().setPrefix("paged/")
                .setMaxResultsPerPage(7), null).streamByPage().count();
        assertThat(pages).as("the server really pages at 7 names").isEqualTo(8);
    }

    @Test
    void blobNamesLongerThanAzureAllowsAreRefusedBeforeAnyRequest() {
        AzureBlobCloudStore store = closeLater(azurite.builder("az", container()).prefix("p").createBucket(true)
                .build());
        String key = "x".repeat(1023);

        assertThatThrownBy(() -> store.put(key, bytes("v")))
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContainingAll("1025 characters", "1024", "hybris.cloud.az.prefix");
    }

    @Test
    void connectionStringAuthorises() {
        String name = container();
        AzureBlobCloudStore store = closeLater(AzureBlobCloudStore.builder("az")
                .connectionString(azurite.connectionString()).container(name).createBucket(true).build());

        store.put("hybris/cs#1_c", bytes("via connection string"));

        assertThat(store.get("hybris/cs#1_c", 100)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("via connection string")));
        assertThat(service.getBlobContainerClient(name).getBlobClient("hybris/cs#1_c").exists()).isTrue();
    }

    @Test
    void sasTokenAuthorisesAndATamperedOneIsRefusedPermanently() {
        String name = container();
        service.getBlobContainerClient(name).create();
        String sas = service.generateAccountSas(new AccountSasSignatureValues(OffsetDateTime.now().plusHours(1),
                AccountSasPermission.parse("rwdlc"), AccountSasService.parse("b"),
                AccountSasResourceType.parse("sco")));

        AzureBlobCloudStore store = closeLater(AzureBlobCloudStore.builder("az").endpoint(azurite.endpoint)
                .sasToken("?" + sas).container(name).build());
        store.put("hybris/sas#1_c", bytes("via sas"));
        assertThat(store.get("hybris/sas#1_c", 100)).hasValueSatisfying(
                v -> assertThat(v).isEqualTo(bytes("via sas")));
        assertThat(store.list("hybris/")).extracting(CloudObject::key).containsExactly("hybris/sas#1_c");

        String tampered = sas.replaceAll("sig=[^&]+", "sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D");
        assertThat(tampered).isNotEqualTo(sas);
        assertThatThrownBy(() -> AzureBlobCloudStore.builder("az").endpoint(azurite.endpoint).sasToken(tampered)
                .container(name).build())
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContainingAll("HTTP 403", "check the credentials (sas-token)")
                .hasMessageNotContaining("null");
    }

    @Test
    void wrongKeyIsRefusedPermanentlyAtStartUpWithTheServiceMessage() {
        String name = container();
        service.getBlobContainerClient(name).create();
        String wrongKey = "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXktd3Jvbmcta2V5LXdyb25nLWtleQ==";

        assertThatThrownBy(() -> AzureBlobCloudStore.builder("az").endpoint(azurite.endpoint)
                .account(azurite.account).key(wrongKey).container(name).build())
                .isInstanceOfSatisfying(PermanentCloudException.class, e -> assertThat(e.cloudId()).isEqualTo("az"))
                .hasMessageContainingAll("start-up check of container '" + name + "' was refused (HTTP 403",
                        "account '" + azurite.account + "' with key")
                .hasMessageNotContaining(wrongKey)
                .hasMessageNotContaining("null");
    }

    @Test
    void unreachableEndpointIsATransientErrorNamingIt() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + closedPort + "/devstoreaccount1";

        assertThatThrownBy(() -> AzureBlobCloudStore.builder("az").endpoint(endpoint).account(azurite.account)
                .key(azurite.key).container("hybris").connectTimeout(Duration.ofSeconds(2)).build())
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining(endpoint)
                .hasMessageContaining("ConnectException");
    }

    @Test
    void aSlowResponseEndsAtTheRequestTimeoutAsATransientError() {
        String name = container();
        service.getBlobContainerClient(name).create();
        Toxiproxy.Proxy proxy = proxy();
        AzureBlobCloudStore store = closeLater(AzureBlobCloudStore.builder("az").endpoint(proxy.endpoint())
                .account(azurite.account).key(azurite.key).container(name)
                .requestTimeout(Duration.ofMillis(500)).build());
        store.put("hybris/slow#1_c", bytes("slow"));
        proxy.latency(Duration.ofSeconds(5));

        long t0 = System.nanoTime();
        assertThatThrownBy(() -> store.get("hybris/slow#1_c", 100))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContainingAll("get of 'hybris/slow#1_c' timed out", "hybris.cloud.az.request-timeout");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
    }

    @Test
    void aCallOnAnInterruptedThreadDoesNotStartAndAClosedStoreRefuses() {
        AzureBlobCloudStore store = azurite.builder("az", container()).createBucket(true).build();
        try {
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> store.put("hybris/x#1_c", bytes("x")))
                    .isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("not started: the calling thread is interrupted");
            assertThat(Thread.interrupted()).isTrue();
        } finally {
            store.close();
        }
        store.close(); // idempotent
        assertThatThrownBy(() -> store.get("hybris/x#1_c", 10))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("the store is closed");
    }

    private Toxiproxy.Proxy proxy() {
        Toxiproxy.Proxy proxy = new Toxiproxy(env.toxiproxyApi())
                .create("azure-" + UUID.randomUUID().toString().substring(0, 8), env.azuriteEndpoint());
        closeables.add(proxy::delete);
        return proxy;
    }
}
