/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.MetadataUnavailableException;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.MetadataUpdate;
import io.hybris.spi.VersionConflictException;
import io.hybris.testkit.ForwardingMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A CompleteMultipartUpload whose commit went through but whose clean-up afterwards failed (the metadata store
 * blinked, or the gateway was closed under it): the client was told it failed and retries, and the retry must
 * return the committed object and finish the clean-up, not answer InvalidPart (its part receipts are already gone)
 * and leave a record that can neither be aborted nor listed and keeps the bucket from being deleted.
 */
class CompleteCleanupFaultTest {
    private static final Pattern RECORD = Pattern.compile("[a-z0-9-]+/[0-9a-f]{32}");
    private static final Pattern RECEIPT = Pattern.compile("[a-z0-9-]+/[0-9a-f]{32}/[0-9]{5}");

    /** Once armed, lets {@code passing} writes to keys of {@code failing} through and fails the next one. */
    private static final class FailingRecordWrites extends ForwardingMetadataStore {
        final AtomicBoolean armed = new AtomicBoolean();
        final AtomicInteger passing = new AtomicInteger();
        volatile Pattern failing = RECORD;

        FailingRecordWrites() {
            super(new InMemoryMetadataStore());
        }

        private void check(MetadataUpdate u) {
            if (u.key().container().equals(Buckets.UPLOADS) && failing.matcher(u.key().key()).matches()
                    && armed.get() && passing.getAndDecrement() == 0) {
                armed.set(false);
                throw new MetadataUnavailableException("injected: the metadata store blinked");
            }
        }

        @Override
        public void conditionalUpdate(MetadataUpdate update) throws VersionConflictException {
            check(update);
            super.conditionalUpdate(update);
        }

        @Override
        public void conditionalUpdateAll(List<MetadataUpdate> updates) throws VersionConflictException {
            updates.forEach(this::check);
            super.conditionalUpdateAll(updates);
        }
    }

    private final FailingRecordWrites metadata = new FailingRecordWrites();
    private Hybris hybris;
    private S3Gateway gateway;
    private S3Client s3;
    /** The gateway's monotonic clock. */
    private final AtomicLong ticks = new AtomicLong();

    @BeforeEach
    void start() {
        hybris = Hybris.open(GatewayFixture.config(metadata, List.of(new InMemoryCloudStore("c0"),
                new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2")), Duration.ofSeconds(30)).build());
        gateway = S3Gateway.builder(hybris).port(0).credentials(GatewayFixture.ACCESS_KEY, GatewayFixture.SECRET_KEY)
                .nanoTime(ticks::get).start();
        s3 = GatewayFixture.clientOf(gateway, false);
    }

    @AfterEach
    void stop() {
        s3.close();
        gateway.close();
        hybris.close();
    }

    @Test
    void aCompleteRetriedAfterItsCleanUpFailedReturnsTheObjectAndLeavesNoUpload() {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("the only part")).eTag();
        Runnable complete = () -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build())));
        // the complete writes the record twice: marks it completing, then (after the commit) deletes it
        metadata.passing.set(1);
        metadata.armed.set(true);
        Throwable first = catchThrowable(complete::run);
        String committed = s3.headObject(b -> b.bucket("bkt").key("k")).eTag();
        assertThat(committed).as("the first attempt committed").endsWith("-1\"");
        assertThat(first).as("but its client was told it failed").isInstanceOf(S3Exception.class);

        CompleteMultipartUploadResponse again = s3.completeMultipartUpload(b -> b.bucket("bkt").key("k")
                .uploadId(id).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build())));
        assertThat(again.eTag()).isEqualTo(committed);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asUtf8String()).isEqualTo("the only part");
        assertThat(hybris.list(Buckets.UPLOADS)).as("no record or receipt is left").isEmpty();
    }

    /**
     * A part sent to an upload whose complete committed but whose record is still marked completing (its clean-up
     * failed): the upload is over, so the part gets {@code NoSuchUpload}, as a part to a completed upload does, not
     * {@code InvalidArgument} (a client error to fix in the request), and no receipt is left.
     */
    @Test
    void aPartForAnUploadCommittedButStillMarkedCompletingIsNoSuchUpload() {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("the only part")).eTag();
        metadata.passing.set(1);
        metadata.armed.set(true);
        assertThat(catchThrowable(() -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e1).build())))))
                .as("committed, but its clean-up failed").isInstanceOf(S3Exception.class);

        Throwable late = catchThrowable(() -> s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(2),
                RequestBody.fromString("too late")));

        assertThat(late).isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) late).awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
        assertThat(((S3Exception) late).statusCode()).isEqualTo(404);
        assertThat(hybris.list(Buckets.UPLOADS)).as("only the record left completing, no receipt of part 2")
                .singleElement().asString().matches(RECORD);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asUtf8String()).isEqualTo("the only part");
    }

    /**
     * A complete that went through entirely (committed, record and receipts removed) but whose answer the client
     * never got (the connection dropped after the 200 was sent): the SDK's retry must get the object back, as from
     * S3, not NoSuchUpload for an upload whose object is stored. A complete naming other parts, or one of an upload
     * aborted, still gets NoSuchUpload.
     */
    @Test
    void aCompleteRetriedAfterItSucceededReturnsTheObject() {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("the only part")).eTag();
        CompletedPart part = CompletedPart.builder().partNumber(1).eTag(e1).build();
        String committed = s3.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(part))).eTag();
        assertThat(hybris.list(Buckets.UPLOADS)).as("the upload is gone").isEmpty();

        CompleteMultipartUploadResponse again = s3.completeMultipartUpload(b -> b.bucket("bkt").key("k")
                .uploadId(id).multipartUpload(m -> m.parts(part)));
        assertThat(again.eTag()).isEqualTo(committed);
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asUtf8String()).isEqualTo("the only part");

        Throwable otherParts = catchThrowable(() -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k")
                .uploadId(id).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1)
                        .eTag("\"0123456789abcdef0123456789abcdef\"").build()))));
        assertThat(((S3Exception) otherParts).awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
        String aborted = s3.createMultipartUpload(b -> b.bucket("bkt").key("k2")).uploadId();
        String e2 = s3.uploadPart(b -> b.bucket("bkt").key("k2").uploadId(aborted).partNumber(1),
                RequestBody.fromString("the only part")).eTag();
        s3.abortMultipartUpload(b -> b.bucket("bkt").key("k2").uploadId(aborted));
        Throwable afterAbort = catchThrowable(() -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k2")
                .uploadId(aborted).multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(e2)
                        .build()))));
        assertThat(((S3Exception) afterAbort).awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
        assertThat(hybris.list("bkt")).containsExactly("k");
    }

    /**
     * Two completes of one upload naming different parts would store two manifests under one version's name, and the
     * one stored last could replace the committed one's: while a complete runs (its mark on the record), another
     * naming other parts is refused 409, one naming the same parts (a retry) goes on, and a mark older than a
     * complete can run (its gateway stopped) is taken over. A mark's age is how long this gateway has seen it
     * unchanged, on its monotonic clock: the marking gateway's wall-clock time in the record (an hour old here, as a
     * gateway whose clock runs an hour ahead of the marker's would see it) was taken over at once.
     */
    @Test
    void aCompleteNamingOtherPartsThanOneInProgressIsRefused() throws Exception {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(1),
                RequestBody.fromString("first")).eTag();
        String e2 = s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(2),
                RequestBody.fromString("second")).eTag();
        // a complete of part 1 alone in progress: the record as its mark leaves it
        java.util.Properties record = new java.util.Properties();
        record.load(new java.io.ByteArrayInputStream(hybris.get(Buckets.UPLOADS, "bkt/" + id).orElseThrow()));
        record.setProperty("state", "completing");
        record.setProperty("parts", md5OfMd5s(e1) + "-1");
        record.setProperty("completing-since", Long.toString(System.currentTimeMillis() - 3_600_000));
        hybris.put(Buckets.UPLOADS, "bkt/" + id, bytes(record));
        Runnable completeWithPart2 = () -> s3.completeMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(2).eTag(e2).build())));

        for (long wait : new long[] {0, Duration.ofMinutes(10).toNanos() - 1}) {
            ticks.addAndGet(wait);
            Throwable other = catchThrowable(completeWithPart2::run);
            assertThat(other).as("after %d ns", wait).isInstanceOf(S3Exception.class);
            assertThat(((S3Exception) other).statusCode()).isEqualTo(409);
            assertThat(((S3Exception) other).awsErrorDetails().errorCode()).isEqualTo("OperationAborted");
            assertThat(hybris.get("bkt", "k")).as("nothing committed").isEmpty();
        }

        ticks.addAndGet(1); // seen unchanged for 10 minutes: its gateway stopped
        completeWithPart2.run();
        assertThat(s3.getObjectAsBytes(b -> b.bucket("bkt").key("k")).asUtf8String()).isEqualTo("second");
    }

    private static String md5OfMd5s(String... etags) throws Exception {
        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        for (String e : etags) {
            md5.update(java.util.HexFormat.of().parseHex(e.replace("\"", "")));
        }
        return java.util.HexFormat.of().formatHex(md5.digest());
    }

    private static byte[] bytes(java.util.Properties p) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        p.store(out, null);
        return out.toByteArray();
    }

    @Test
    void anAbortRetriedAfterItsCleanUpFailedLeavesNoReceiptAndTheBucketCanBeDeleted() {
        s3.createBucket(b -> b.bucket("bkt"));
        String id = s3.createMultipartUpload(b -> b.bucket("bkt").key("k")).uploadId();
        for (int n = 1; n <= 2; n++) {
            int part = n;
            s3.uploadPart(b -> b.bucket("bkt").key("k").uploadId(id).partNumber(part),
                    RequestBody.fromString("part " + part));
        }
        metadata.failing = RECEIPT;
        metadata.passing.set(0);
        metadata.armed.set(true); // the abort's deletion of the first receipt fails (after the record is gone)
        Throwable first = catchThrowable(() -> s3.abortMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)));
        assertThat(first).as("the abort failed midway").isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) first).statusCode()).isEqualTo(503);

        Throwable retry = catchThrowable(() -> s3.abortMultipartUpload(b -> b.bucket("bkt").key("k").uploadId(id)));
        if (retry != null) {
            assertThat(((S3Exception) retry).awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload");
        }
        assertThat(hybris.list(Buckets.UPLOADS)).as("no record or receipt is left").isEmpty();
        assertThat(catchThrowable(() -> s3.deleteBucket(b -> b.bucket("bkt")))).as("the bucket can be deleted")
                .isNull();
    }
}
