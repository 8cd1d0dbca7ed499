/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.OAuth2CredentialsWithRefresh;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * How the store maps what a GCS-like server answers (401, 403, 404, 429, 5xx, a rejected key, no answer at all)
 * to Hybris exceptions, how it honours interruption, timeouts and retries, and what range it asks for. Uses
 * {@link FakeGcsServer}, because fake-gcs-server never fails.
 */
@Timeout(60)
class GcsErrorMappingTest {
    private static final String KEY = "hybris/c/k#1_abc";

    private FakeGcsServer server;

    @BeforeEach
    void start() throws Exception {
        server = FakeGcsServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private GcsCloudStore.Builder store() {
        AccessToken access = new AccessToken("test-token", Date.from(Instant.now().plus(Duration.ofHours(1))));
        // refreshable, as real credentials are: on a 401 the SDK refreshes once and tries again
        OAuth2CredentialsWithRefresh token = OAuth2CredentialsWithRefresh.newBuilder().setAccessToken(access)
                .setRefreshHandler(() -> access).build();
        return GcsCloudStore.builder("fake").endpoint(server.endpoint()).project("p").bucket("bkt")
                .credentials(token).requestTimeout(Duration.ofSeconds(10));
    }

    private GcsCloudStore started() {
        server.respondWith(200, "");
        return store().build();
    }

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void deniedRequestsArePermanentAndKeepTheStatusAndMessage(int status) {
        try (GcsCloudStore store = started()) {
            server.respondWith(status, "hybris@p.iam does not have storage.objects.create access");

            assertThatThrownBy(() -> store.put(KEY, new byte[] {1}))
                    .isInstanceOfSatisfying(PermanentCloudException.class, e -> assertThat(e.cloudId()).isEqualTo("fake"))
                    .hasMessageContaining("HTTP " + status)
                    .hasMessageContaining("does not have storage.objects.create access")
                    .hasMessageContaining(KEY).hasMessageContaining("bucket 'bkt'");
            assertThatThrownBy(() -> store.get(KEY, 10)).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("HTTP " + status)
                    .hasMessageContaining("does not have storage.objects.create access");
            assertThatThrownBy(() -> store.list("hybris/")).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("HTTP " + status)
                    .hasMessageContaining("does not have storage.objects.create access");
            assertThatThrownBy(() -> store.delete(KEY)).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("HTTP " + status);
        }
        assertThat(server.lastAuthorization()).isEqualTo("Bearer test-token");
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 500, 502, 503})
    void throttlingAndServerErrorsAreTransient(int status) {
        try (GcsCloudStore store = started()) {
            server.respondWith(status, "We encountered an internal error. Please try again.");

            assertThatThrownBy(() -> store.put(KEY, new byte[] {1})).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("HTTP " + status).hasMessageContaining("Please try again");
            assertThatThrownBy(() -> store.get(KEY, 10)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("HTTP " + status);
            assertThatThrownBy(() -> store.list("hybris/")).isInstanceOf(TransientCloudException.class);
            assertThatThrownBy(() -> store.delete(KEY)).isInstanceOf(TransientCloudException.class);
        }
    }

    @Test
    void noSuchObjectIsEmptyOrANoOpButAMissingBucketIsPermanent() {
        try (GcsCloudStore store = started()) {
            server.respondWith(404, "No such object: bkt/" + KEY);
            assertThat(store.get(KEY, 10)).isEmpty();
            store.delete(KEY);

            server.respondWith(404, "The specified bucket does not exist.");
            assertThatThrownBy(() -> store.list("hybris/")).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("bucket 'bkt' does not exist").hasMessageContaining("create-bucket=true");
            assertThatThrownBy(() -> store.put(KEY, new byte[] {1})).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("bucket 'bkt' does not exist");
            assertThatThrownBy(() -> store.get(KEY, 10)).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("bucket 'bkt' does not exist");
        }
    }

    @Test
    void aMissingBucketFailsTheStartUpCheck() {
        server.respondWith(404, "The specified bucket does not exist.");
        assertThatThrownBy(() -> store().build()).isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("bucket 'bkt' does not exist")
                .hasMessageContaining("create it, or set create-bucket=true");
    }

    @Test
    void aFixedAccessTokenThatIsRefusedIsPermanent() {
        server.respondWith(200, "");
        GoogleCredentials fixed = GoogleCredentials.create(
                new AccessToken("stale-token", Date.from(Instant.now().plus(Duration.ofHours(1)))));
        try (GcsCloudStore store = GcsCloudStore.builder("fake").endpoint(server.endpoint()).project("p")
                .bucket("bkt").credentials(fixed).build()) {
            server.respondWith(401, "Invalid Credentials");
            assertThatThrownBy(() -> store.get(KEY, 10)).isInstanceOf(PermanentCloudException.class)
                    .hasMessageContaining("credentials were rejected");
        }
    }

    @Test
    void aRejectedServiceAccountKeyIsPermanentAndNamesTheTokenError() {
        assertThatThrownBy(() -> GcsCloudStore.builder("fake").endpoint(server.endpoint()).project("p").bucket("bkt")
                .credentialsFile(server.rejectedServiceAccountKey()).build())
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("credentials were rejected")
                .hasMessageContaining("invalid_grant");
        assertThat(server.storageRequests()).isZero();
    }

    @Test
    void getAsksForExactlyOneByteMoreThanTheLimit() {
        try (GcsCloudStore store = started()) {
            server.respondWith(404, "No such object");
            assertThat(store.get(KEY, 999)).isEmpty();
            assertThat(server.lastRange()).isEqualTo("bytes=0-999");
            assertThat(store.get(KEY, 0)).isEmpty();
            assertThat(server.lastRange()).isEqualTo("bytes=0-0");
            assertThat(store.get(KEY, Long.MAX_VALUE)).isEmpty();
            assertThat(server.lastRange()).isNull();
        }
    }

    @Test
    void listingsAskForThePageTokenAndPagesOfAThousand() {
        try (GcsCloudStore store = started()) {
            assertThat(store.list("hybris/c/")).isEmpty();
            String query = java.net.URLDecoder.decode(server.lastUri().getRawQuery(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertThat(query).contains("prefix=hybris/c/").contains("maxResults=1000").contains("nextPageToken");
        }
    }

    @Test
    void retriesRepeatTransientFailuresThatManyTimes() {
        try (GcsCloudStore none = started(); GcsCloudStore two = store().retries(2).build()) {
            server.respondWith(503, "Service Unavailable");
            int before = server.storageRequests();
            assertThatThrownBy(() -> none.get(KEY, 10)).isInstanceOf(TransientCloudException.class);
            assertThat(server.storageRequests() - before).isEqualTo(1);

            before = server.storageRequests();
            assertThatThrownBy(() -> two.put(KEY, new byte[] {1})).isInstanceOf(TransientCloudException.class);
            assertThat(server.storageRequests() - before).isEqualTo(3);

            server.respondWith(403, "Forbidden");
            before = server.storageRequests();
            assertThatThrownBy(() -> two.get(KEY, 10)).isInstanceOf(PermanentCloudException.class);
            assertThat(server.storageRequests() - before).isEqualTo(1);
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutTransiently() {
        server.respondWith(200, "");
        try (GcsCloudStore store = store().requestTimeout(Duration.ofMillis(300)).build()) {
            server.hang();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> store.get(KEY, 10)).isInstanceOf(TransientCloudException.class)
                    .hasMessageContaining("timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void interruptingTheCallerEndsTheCallAtOnceAndKeepsTheFlag() throws Exception {
        try (GcsCloudStore store = started()) {
            CountDownLatch arrived = server.hang();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean flagKept = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                try {
                    store.get(KEY, 1 << 20);
                } catch (Throwable t) {
                    thrown.set(t);
                }
                flagKept.set(Thread.currentThread().isInterrupted());
            });
            caller.start();
            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the request reached the server").isTrue();

            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(5));

            assertThat(caller.isAlive()).as("the caller is still blocked").isFalse();
            assertThat(thrown.get()).isInstanceOf(TransientCloudException.class).hasMessageContaining("interrupted");
            assertThat(flagKept).isTrue();
        }
    }

    @Test
    void anAlreadyInterruptedCallerSendsNothing() {
        try (GcsCloudStore store = started()) {
            int before = server.storageRequests();
            CompletableFuture<Boolean> flag = CompletableFuture.supplyAsync(() -> {
                Thread.currentThread().interrupt();
                try {
                    assertThatThrownBy(() -> store.put(KEY, new byte[] {1}))
                            .isInstanceOf(TransientCloudException.class).hasMessageContaining("interrupted");
                    return Thread.currentThread().isInterrupted();
                } finally {
                    Thread.interrupted();
                }
            });
            assertThat(flag.join()).isTrue();
            assertThat(server.storageRequests()).isEqualTo(before);
        }
    }

    @Test
    void closeStopsTheWorkersAndLaterCallsFailClearly() {
        GcsCloudStore store = started();
        server.respondWith(404, "No such object");
        assertThat(store.get(KEY, 1)).isEmpty();

        store.close();

        // like every driver: a closed store is a failed cloud (transient), not a programming error
        assertThatThrownBy(() -> store.get(KEY, 1)).isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("cloud 'fake'").hasMessageContaining("closed");
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("hybris-gcs-fake-")));
    }
}
