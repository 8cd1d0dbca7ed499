package io.hybris.cloud.azure;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How service errors an emulator cannot produce on demand map to Hybris exceptions, and how many requests
 * {@code retries} allows, against a {@link ScriptedBlobServer}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class AzureBlobErrorMappingTest {
    private static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private ScriptedBlobServer server;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedBlobServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private AzureBlobCloudStore store(int retries) {
        return AzureBlobCloudStore.builder("scripted").endpoint(server.endpoint()).account("acct").key(KEY)
                .container("scripted").retries(retries).build();
    }

    @ParameterizedTest(name = "HTTP {0} {1} -> {2}")
    @CsvSource({
            "500, InternalError, transient",
            "503, ServerBusy, transient",
            "502, BadGateway, transient",
            "504, GatewayTimeout, transient",
            "408, RequestTimeout, transient",
            "429, TooManyRequests, transient",
            "409, LeaseIdMissing, transient",
            "403, AuthorizationPermissionMismatch, permanent",
            "401, InvalidAuthenticationInfo, permanent",
            "400, InvalidHeaderValue, permanent",
            "412, ConditionNotMet, permanent",
    })
    void statusesMapToTransientOrPermanentKeepingStatusCodeAndMessage(int status, String code, String kind) {
        server.failWith(status, code);
        try (AzureBlobCloudStore store = store(0)) {
            Class<? extends CloudStoreException> expected = kind.equals("transient") ? TransientCloudException.class
                    : PermanentCloudException.class;
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[] {1}))
                    .isInstanceOf(expected)
                    .hasMessageContainingAll("put of 'hybris/k#1_c'", "HTTP " + status + " " + code,
                            "scripted " + code)
                    .hasMessageNotContaining("null");
            assertThatThrownBy(() -> store.get("hybris/k#1_c", 100))
                    .isInstanceOf(expected)
                    .hasMessageContainingAll("get of 'hybris/k#1_c'", "HTTP " + status + " " + code);
        }
    }

    @Test
    void missingBlobIsEmptyButMissingContainerIsPermanentForEveryOperation() {
        try (AzureBlobCloudStore store = store(0)) {
            server.failWith(404, "BlobNotFound");
            assertThat(store.get("hybris/k#1_c", 100)).isEmpty();
            store.delete("hybris/k#1_c");

            server.failWith(404, "ContainerNotFound");
            assertThatThrownBy(() -> store.get("hybris/k#1_c", 100))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContainingAll("container 'scripted' does not exist", "hybris.cloud.scripted.create-bucket");
            assertThatThrownBy(() -> store.delete("hybris/k#1_c"))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("container 'scripted' does not exist");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1]))
                    .isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("container 'scripted' does not exist");
        }
    }

    @Test
    void retriesZeroSendsOneRequestAndRetriesTwoSendsThree() {
        try (AzureBlobCloudStore store = store(0)) {
            server.failWith(503, "ServerBusy");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(TransientCloudException.class);
            assertThat(server.blobRequests()).isEqualTo(1);
        }
        try (AzureBlobCloudStore store = store(2)) {
            server.failWith(503, "ServerBusy");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(TransientCloudException.class);
            assertThat(server.blobRequests()).isEqualTo(3);
            server.failWith(403, "AuthorizationFailure");
            assertThatThrownBy(() -> store.put("hybris/k#1_c", new byte[1])).isInstanceOf(PermanentCloudException.class);
            assertThat(server.blobRequests()).as("a 403 is not retried").isEqualTo(1);
        }
    }
}
