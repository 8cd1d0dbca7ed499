/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.azure;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.models.BlobItem;
import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@link Hybris} client whose three clouds are Azure containers on Azurite, configured from properties only. */
class AzureConfiguredClientTest {
    private final List<String> containers = List.of(Azurite.freshContainer(), Azurite.freshContainer(),
            Azurite.freshContainer());
    private BlobServiceClient service;

    @AfterEach
    void deleteContainers() {
        if (service != null) {
            containers.forEach(c -> service.getBlobContainerClient(c).deleteIfExists());
        }
    }

    @Test
    void propertiesFileSelectsAzureCloudsWithKeysFromTheEnvironment(@TempDir Path dir) throws Exception {
        Azurite azurite = Azurite.require();
        service = azurite.service();
        Path file = dir.resolve("hybris.properties");
        StringBuilder props = new StringBuilder("hybris.f=1\nhybris.client-id=azure-client\nhybris.rmds.type=memory\n");
        for (int i = 0; i < 3; i++) {
            String id = "az" + (i + 1);
            props.append("hybris.cloud.").append(id).append(".type=azure\n")
                    .append("hybris.cloud.").append(id).append(".endpoint=").append(azurite.endpoint).append('\n')
                    .append("hybris.cloud.").append(id).append(".account=").append(azurite.account).append('\n')
                    .append("hybris.cloud.").append(id).append(".container=").append(containers.get(i)).append('\n')
                    .append("hybris.cloud.").append(id).append(".prefix=store\n")
                    .append("hybris.cloud.").append(id).append(".request-timeout=10s\n")
                    .append("hybris.cloud.").append(id).append(".retries=1\n")
                    .append("hybris.cloud.").append(id).append(".create-bucket=true\n");
        }
        Files.writeString(file, props, StandardCharsets.UTF_8);
        // the secret comes from the environment, as HYBRIS_CLOUD_<ID>_KEY
        Map<String, String> env = Map.of("HYBRIS_CLOUD_AZ1_KEY", azurite.key, "HYBRIS_CLOUD_AZ2_KEY", azurite.key,
                "HYBRIS_CLOUD_AZ3_KEY", azurite.key);

        try (Hybris h = Hybris.open(HybrisConfig.fromProperties(file, env))) {
            h.put("docs", "readme", "hello azure".getBytes(StandardCharsets.UTF_8));
            assertThat(h.get("docs", "readme")).hasValueSatisfying(
                    v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("hello azure"));
            assertThat(h.list("docs")).containsExactly("readme");
            assertThat(h.describe("docs", "readme").orElseThrow().clientId()).isEqualTo("azure-client");
        }

        long holding = containers.stream().filter(c -> service.getBlobContainerClient(c).listBlobs().stream()
                .map(BlobItem::getName).anyMatch(n -> n.startsWith("store/") && n.contains("readme"))).count();
        assertThat(holding).as("containers holding the value (f+1 = 2 at least)").isGreaterThanOrEqualTo(2);
    }
}
