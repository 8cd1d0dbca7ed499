/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.Configuration;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ContentLengthDroppingJdkClient} and the adapter configuration {@link AzureBlobClients} gives it: the SDK's
 * JDK adapter hands every request to the JDK client with the {@code Content-Length} the SDK set (an adapter that
 * drops the header logs a WARN for it, once per upload before this change), and the wire still carries a
 * fixed-length body. Against Azurite, and a scripted server for the bytes on the wire.
 */
class ContentLengthDroppingJdkClientTest {
    private static final String KEY = "c2NyaXB0ZWQta2V5"; // base64 of "scripted-key"

    /** Records each request as the adapter made it: method and Content-Length. */
    private static Consumer<HttpRequest> recordInto(List<String> seen) {
        return r -> seen.add(r.method() + " content-length=" + r.headers().firstValue("Content-Length").orElse(null));
    }

    @Test
    void theAdapterHandsEveryRequestOfTheStoreToTheJdkClientWithItsContentLengthDroppingNone() {
        Azurite azurite = Azurite.require();
        List<String> seen = new CopyOnWriteArrayList<>();
        byte[] value = "quiet bytes".getBytes(StandardCharsets.UTF_8);
        try (AzureBlobCloudStore store = azurite.builder("quiet", Azurite.freshContainer()).createBucket(true)
                .seenByJdkClient(recordInto(seen)).build()) {
            store.put("hybris/k#1_c", value);
            assertThat(store.get("hybris/k#1_c", 100)).as("the upload was accepted whole").hasValue(value);
            assertThat(store.get("hybris/missing#1_c", 100)).isEmpty();
            assertThat(store.list("hybris/")).hasSize(1);
            store.delete("hybris/k#1_c");
            assertThat(store.get("hybris/k#1_c", 100)).isEmpty();
        }
        assertThat(Configuration.getGlobalConfiguration().get("jdk.httpclient.allowRestrictedHeaders", ""))
                .as("the adapter's configuration is the store's own, not the JVM's").isEmpty();
        assertThat(seen).as("the SDK sets Content-Length on every request; an adapter that dropped it would have"
                        + " logged a WARN for it").contains("PUT content-length=11", "GET content-length=0",
                        "DELETE content-length=0")
                .noneMatch(r -> r.endsWith("content-length=null"));
    }

    @Test
    void theWireCarriesTheUploadWithItsLengthNotChunked() throws Exception {
        try (ScriptedBlobServer server = new ScriptedBlobServer();
             AzureBlobCloudStore store = AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint())
                     .account("acct").key(KEY).container("scripted").build()) {
            server.failWith(503, "ServerBusy");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[11]))
                    .isInstanceOf(TransientCloudException.class);
            assertThatThrownBy(() -> store.delete("hybris/k#1_c")).isInstanceOf(TransientCloudException.class);
            assertThat(server.framing()).as("the JDK client wrote the length from the body publisher, as before")
                    .containsExactly("PUT content-length=11 transfer-encoding=null",
                            "DELETE content-length=0 transfer-encoding=null");
        }
    }

    @Test
    void withoutTheDriversAdapterConfigurationTheAdapterDropsTheHeaderItWarnsAbout() {
        Azurite azurite = Azurite.require();
        List<String> dropped = new CopyOnWriteArrayList<>();
        List<String> kept = new CopyOnWriteArrayList<>();
        byte[] value = new byte[3000];
        upload(azurite, new JdkHttpClientBuilder(ContentLengthDroppingJdkClient.around(
                java.net.http.HttpClient.newBuilder(), recordInto(dropped))), value);
        upload(azurite, new JdkHttpClientBuilder(ContentLengthDroppingJdkClient.around(
                java.net.http.HttpClient.newBuilder(), recordInto(kept)))
                .configuration(AzureBlobClients.ADAPTER_CONFIGURATION), value);

        assertThat(dropped).as("the adapter's default: the header dropped (and a WARN logged)")
                .contains("PUT content-length=null").doesNotContain("PUT content-length=3000");
        assertThat(kept).contains("PUT content-length=3000").noneMatch(r -> r.endsWith("content-length=null"));
    }

    private static void upload(Azurite azurite, JdkHttpClientBuilder adapter, byte[] value) {
        BlobContainerClient container = new BlobContainerClientBuilder().endpoint(azurite.endpoint)
                .credential(new StorageSharedKeyCredential(azurite.account, azurite.key))
                .httpClient(adapter.build()).containerName(Azurite.freshContainer()).buildClient();
        container.create();
        container.getBlobClient("blob").getBlockBlobClient().upload(new java.io.ByteArrayInputStream(value),
                value.length);
        assertThat(container.getBlobClient("blob").downloadContent().toBytes()).isEqualTo(value);
    }
}
