/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.KeyPage;
import io.hybris.PreconditionFailedException;
import io.hybris.PutOptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Buckets as Hybris containers. Hybris has no container objects (a container exists while it holds keys), so the
 * gateway records each bucket as a key of its registry container {@value #REGISTRY} (the value: the creation time);
 * multipart uploads in progress live in {@value #UPLOADS}. Both names are reserved: no bucket may take them.
 * Bucket names are Hybris container names: 3-63 characters of {@code a-z}, {@code 0-9} and {@code -}, starting and
 * ending with a letter or digit (S3's rules without dots).
 *
 * <p>Object requests check that their bucket exists ({@link #require}); a bucket seen to exist is taken as existing
 * for {@link #SEEN_FOR} without another registry read (a read per PUT queued behind the metadata store's commits), as
 * S3's own bucket operations are eventually consistent: a bucket deleted through another gateway may still take
 * objects for that long. A deletion through this gateway, HeadBucket and the listings always read the registry.
 *
 * <p>Writes into a bucket on this gateway ({@link #writing}: PutObject, CopyObject, CreateMultipartUpload,
 * CompleteMultipartUpload) and its deletion here exclude each other: a DeleteBucket while such a write runs fails
 * with BucketNotEmpty (the write found the bucket existing and may commit an object after the deletion's emptiness
 * check: both acknowledged, the object would be left in a deleted bucket, and back in one created later under the
 * name), and a write arriving during the deletion waits for its outcome. Through two gateways the race remains, as
 * above.
 */
final class Buckets {
    static final String REGISTRY = "hybris-s3-buckets";
    static final String UPLOADS = "hybris-s3-uploads";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    /** How long a bucket seen to exist is taken as existing by object requests. */
    static final java.time.Duration SEEN_FOR = java.time.Duration.ofSeconds(1);
    private static final int MAX_SEEN = 10_000;

    /** How long a write waits for a deletion of its bucket on this gateway to end before giving up. */
    private static final long DELETION_WAIT_MILLIS = 60_000;

    private final Hybris hybris;
    /** Buckets seen to exist, and until when ({@link System#nanoTime()}) that is taken as still true. */
    private final Map<String, Long> seen = new ConcurrentHashMap<>();
    /** Guards {@link #writes} and {@link #deleting}. */
    private final Object lock = new Object();
    /** Writes into each bucket running on this gateway, by bucket. */
    private final Map<String, Integer> writes = new java.util.HashMap<>();
    /** Buckets being deleted through this gateway. */
    private final java.util.Set<String> deleting = new java.util.HashSet<>();

    Buckets(Hybris hybris) {
        this.hybris = hybris;
    }

    /** A bucket and its creation time. */
    record Bucket(String name, long created) {
    }

    static void checkName(String bucket) {
        if (!NAME.matcher(bucket).matches()) {
            throw new S3Exception(400, "InvalidBucketName", "The specified bucket is not valid: '" + bucket
                    + "'; use 3-63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit (the"
                    + " gateway does not take dots)");
        }
        if (bucket.equals(REGISTRY) || bucket.equals(UPLOADS)) {
            throw new S3Exception(400, "InvalidBucketName", "The bucket name " + bucket + " is reserved by the"
                    + " Hybris S3 gateway");
        }
    }

    /** Whether {@code bucket} could name a bucket (a valid, unreserved container name). */
    static boolean validName(String bucket) {
        return NAME.matcher(bucket).matches() && !bucket.equals(REGISTRY) && !bucket.equals(UPLOADS);
    }

    void create(String bucket) {
        checkName(bucket);
        try {
            hybris.put(REGISTRY, bucket, Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8),
                    PutOptions.ifAbsent());
        } catch (PreconditionFailedException e) {
            throw new S3Exception(409, "BucketAlreadyOwnedByYou", "Your previous request to create the named bucket"
                    + " succeeded and you already own it: " + bucket);
        }
    }

    boolean exists(String bucket) {
        return validName(bucket) && hybris.describe(REGISTRY, bucket).isPresent();
    }

    /**
     * For object requests: fails unless the bucket exists, or was seen to exist within {@link #SEEN_FOR}.
     *
     * @throws S3Exception NoSuchBucket if the bucket does not exist
     */
    void require(String bucket) {
        Long until = seen.get(bucket);
        if (until != null && System.nanoTime() - until < 0) {
            return;
        }
        if (!exists(bucket)) {
            seen.remove(bucket);
            throw S3Exception.noSuchBucket(bucket);
        }
        if (seen.size() >= MAX_SEEN) {
            seen.clear();
        }
        seen.put(bucket, System.nanoTime() + SEEN_FOR.toNanos());
    }

    /** A write into a bucket, registered with this gateway until closed. */
    interface Write extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Registers a write into {@code bucket} (a deletion of the bucket here meanwhile fails), after waiting while the
     * bucket is being deleted through this gateway; the write then checks the bucket ({@link #require}) and closes
     * the result once it has ended.
     *
     * @throws S3Exception OperationAborted if a deletion of the bucket here did not end within a minute
     */
    Write writing(String bucket) {
        synchronized (lock) {
            long until = System.nanoTime() + DELETION_WAIT_MILLIS * 1_000_000;
            while (deleting.contains(bucket)) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new S3Exception(409, "OperationAborted", "A conflicting conditional operation is"
                            + " currently in progress against this resource (the bucket is being deleted). Please"
                            + " try again.");
                }
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new S3Exception(503, "ServiceUnavailable", "The gateway is stopping. Please try again.");
                }
            }
            writes.merge(bucket, 1, Integer::sum);
        }
        return () -> {
            synchronized (lock) {
                writes.computeIfPresent(bucket, (b, n) -> n == 1 ? null : n - 1);
            }
        };
    }

    List<Bucket> list() {
        List<Bucket> out = new ArrayList<>();
        String cursor = null;
        do {
            KeyPage page = hybris.list(REGISTRY, "", cursor, 1000);
            for (String name : page.keys()) {
                long created = hybris.get(REGISTRY, name).map(b -> parse(new String(b, StandardCharsets.UTF_8)))
                        .orElse(-1L);
                if (created >= 0) {
                    out.add(new Bucket(name, created));
                }
            }
            cursor = page.nextCursor().orElse(null);
        } while (cursor != null);
        return out;
    }

    /** Deletes an empty bucket: no object, no multipart upload in progress. */
    void delete(String bucket) {
        synchronized (lock) {
            if (writes.containsKey(bucket)) {
                throw new S3Exception(409, "BucketNotEmpty", "The bucket you tried to delete is not empty: an object"
                        + " is being written to it through this gateway: " + bucket);
            }
            if (deleting.contains(bucket)) {
                throw new S3Exception(409, "OperationAborted", "A conflicting conditional operation is currently in"
                        + " progress against this resource (another deletion of the bucket). Please try again.");
            }
            deleting.add(bucket);
        }
        try {
            deleteUnlessInUse(bucket);
        } finally {
            synchronized (lock) {
                deleting.remove(bucket);
                lock.notifyAll();
            }
        }
    }

    private void deleteUnlessInUse(String bucket) {
        seen.remove(bucket);
        if (!exists(bucket)) {
            throw S3Exception.noSuchBucket(bucket);
        }
        if (!hybris.list(bucket, "", null, 1).keys().isEmpty()) {
            throw new S3Exception(409, "BucketNotEmpty", "The bucket you tried to delete is not empty: " + bucket);
        }
        if (!hybris.list(UPLOADS, bucket + "/", null, 1).keys().isEmpty()) {
            throw new S3Exception(409, "BucketNotEmpty", "The bucket you tried to delete has multipart uploads in"
                    + " progress: complete or abort them first: " + bucket);
        }
        hybris.delete(REGISTRY, bucket);
        seen.remove(bucket);
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
