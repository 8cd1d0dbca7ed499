/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import io.hybris.spi.CloudStoreException;
import io.hybris.spi.PermanentCloudException;
import io.hybris.spi.TransientCloudException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.net.SocketException;
import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** How S3's answers and the SDK's failures become Hybris's transient and permanent errors. */
class S3ErrorsTest {
    private final S3Errors errors = new S3Errors(S3Settings.of(S3CloudStore.builder("aws").bucket("my-bucket")
            .endpoint(URI.create("http://127.0.0.1:9000")).requestTimeout(Duration.ofSeconds(7))));

    private static S3Exception s3(int status, String code, String message) {
        return (S3Exception) S3Exception.builder().statusCode(status).requestId("REQ1")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).build();
    }

    @Test
    void serverErrorsAndThrottlingAreTransientAndKeepStatusCodeAndMessage() {
        assertThat(errors.map("get of 'k'", s3(503, "SlowDown", "Please reduce your request rate."), null))
                .isInstanceOf(TransientCloudException.class)
                .hasMessage("cloud 'aws': get of 'k' on bucket 'my-bucket' at http://127.0.0.1:9000 failed:"
                        + " HTTP 503 SlowDown: Please reduce your request rate. (request id REQ1)");
        assertThat(errors.map("x", s3(500, "InternalError", "oops"), null)).isInstanceOf(TransientCloudException.class);
        assertThat(errors.map("x", s3(429, "TooManyRequests", "slow"), null))
                .isInstanceOf(TransientCloudException.class);
        assertThat(errors.map("x", s3(400, "RequestTimeout", "idle"), null))
                .isInstanceOf(TransientCloudException.class);
    }

    @Test
    void deniedAccessIsPermanentAndSaysWhatToCheck() {
        CloudStoreException e = errors.map("put of 'k'", s3(403, "InvalidAccessKeyId", "The Access Key Id you"
                + " provided does not exist in our records."), null);
        assertThat(e).isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("HTTP 403 InvalidAccessKeyId: The Access Key Id you provided does not exist")
                .hasMessageContaining("hybris.cloud.aws.access-key");
        assertThat(errors.map("x", s3(401, "Unauthorized", "no"), null)).isInstanceOf(PermanentCloudException.class);
        assertThat(errors.map("x", s3(403, "RequestTimeTooSkewed", "skew"), null))
                .isInstanceOf(PermanentCloudException.class).hasMessageContaining("clock");
    }

    @Test
    void aMissingBucketIsPermanentAndNamesItAndTheFix() {
        assertThat(errors.map("put of 'k'", s3(404, "NoSuchBucket", "The specified bucket does not exist"), null))
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("bucket 'my-bucket' does not exist")
                .hasMessageContaining("hybris.cloud.aws.create-bucket=true");
    }

    @Test
    void wrongRegionAndOtherClientErrorsArePermanent() {
        assertThat(errors.map("x", s3(301, "PermanentRedirect", "use the other endpoint"), null))
                .isInstanceOf(PermanentCloudException.class).hasMessageContaining("hybris.cloud.aws.region");
        assertThat(errors.map("x", s3(400, "KeyTooLongError", "Your key is too long"), null))
                .isInstanceOf(PermanentCloudException.class).hasMessageContaining("HTTP 400 KeyTooLongError");
    }

    @Test
    void timeoutsIOFailuresAndAbortsAreTransient() {
        assertThat(errors.map("get of 'k'", ApiCallAttemptTimeoutException.create(7000), null))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("timed out after hybris.cloud.aws.request-timeout=PT7S");
        assertThat(errors.map("get of 'k'", SdkClientException.create("Unable to execute HTTP request",
                new SocketException("Connection reset")), null))
                .isInstanceOf(TransientCloudException.class)
                .hasMessageContaining("Unable to execute HTTP request (SocketException: Connection reset)");
        assertThat(errors.map("get of 'k'", AbortedException.create("aborted"), null))
                .isInstanceOf(TransientCloudException.class).hasMessageContaining("interrupted");
        InFlight aborted = new InFlight();
        aborted.abort();
        assertThat(errors.map("get of 'k'", s3(500, "InternalError", "x"), aborted))
                .isInstanceOf(TransientCloudException.class).hasMessageContaining("aborted (interrupted)");
    }

    @Test
    void missingCredentialsArePermanent() {
        assertThat(errors.map("put of 'k'", SdkClientException.create("Unable to load credentials from any of the"
                + " providers in the chain"), null))
                .isInstanceOf(PermanentCloudException.class)
                .hasMessageContaining("hybris.cloud.aws.access-key");
    }

    @Test
    void theTotalSizeComesFromContentRange() {
        assertThat(ObjectSizes.parseTotal("bytes 0-99/1234")).isEqualTo(1234);
        assertThat(ObjectSizes.parseTotal("bytes 0-0/1")).isEqualTo(1);
        assertThat(ObjectSizes.parseTotal("bytes 0-99/*")).isEqualTo(ObjectSizes.UNKNOWN);
        assertThat(ObjectSizes.parseTotal("garbage")).isEqualTo(ObjectSizes.UNKNOWN);
    }
}
