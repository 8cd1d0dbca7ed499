/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import io.hybris.Hybris;
import io.hybris.PreconditionFailedException;
import org.w3c.dom.Element;

import java.io.IOException;
import java.util.List;

/** ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation and DeleteObjects. */
final class BucketOperations {
    private static final int MAX_DELETE = 1000;

    private final Hybris hybris;
    private final Buckets buckets;

    BucketOperations(Hybris hybris, Buckets buckets) {
        this.hybris = hybris;
        this.buckets = buckets;
    }

    void listBuckets(S3Request r) throws IOException {
        S3Xml xml = S3Xml.document("ListAllMyBucketsResult").start("Owner").element("ID", "hybris")
                .element("DisplayName", "hybris").end().start("Buckets");
        for (Buckets.Bucket b : buckets.list()) {
            xml.start("Bucket").element("Name", b.name()).element("CreationDate", S3Xml.time(b.created())).end();
        }
        Exchanges.xml(r.exchange(), 200, xml.end().toString());
    }

    void create(S3Request r) throws IOException {
        r.readSmallBody(S3Xml.MAX_REQUEST_BYTES); // a CreateBucketConfiguration (location) is accepted and ignored
        buckets.create(r.bucket());
        r.exchange().getResponseHeaders().set("Location", "/" + r.bucket());
        Exchanges.empty(r.exchange(), 200);
    }

    void head(S3Request r) throws IOException {
        buckets.require(r.bucket());
        r.exchange().getResponseHeaders().set("x-amz-bucket-region", "us-east-1");
        Exchanges.empty(r.exchange(), 200);
    }

    void delete(S3Request r) throws IOException {
        buckets.delete(r.bucket());
        Exchanges.empty(r.exchange(), 204);
    }

    void location(S3Request r) throws IOException {
        buckets.require(r.bucket());
        Exchanges.xml(r.exchange(), 200, S3Xml.document("LocationConstraint").toString());
    }

    /**
     * DeleteObjects: up to 1,000 keys; each deleted (a missing key counts as deleted), errors reported per key. An
     * object with an {@code ETag} is deleted only if that is its current ETag (else PreconditionFailed; a missing
     * key is then NoSuchKey).
     */
    void deleteObjects(S3Request r) throws IOException {
        buckets.require(r.bucket());
        Element root = S3Xml.parse(r.readSmallBody(S3Xml.MAX_REQUEST_BYTES), "Delete");
        boolean quiet = "true".equalsIgnoreCase(S3Xml.text(root, "Quiet"));
        List<Element> objects = S3Xml.children(root, "Object");
        if (objects.size() > MAX_DELETE) {
            throw S3Exception.malformedXml("more than " + MAX_DELETE + " objects in one DeleteObjects");
        }
        S3Xml xml = S3Xml.document("DeleteResult");
        for (Element o : objects) {
            String key = S3Xml.text(o, "Key");
            if (key == null || key.isEmpty()) {
                throw S3Exception.malformedXml("an Object without a Key");
            }
            if (S3Xml.text(o, "VersionId") != null) {
                xml.start("Error").element("Key", key).element("Code", "NotImplemented")
                        .element("Message", "deleting a version is not implemented").end();
                continue;
            }
            String etag = S3Xml.text(o, "ETag");
            try {
                if (key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= Keys.MAX_BYTES) {
                    try {
                        Failures.translate(() -> hybris.delete(r.bucket(), key,
                                WriteConditions.forDelete(hybris, r.bucket(), key, etag)));
                    } catch (PreconditionFailedException e) {
                        throw ObjectOperations.preconditionFailed("ETag");
                    }
                } else if (etag != null) {
                    throw S3Exception.noSuchKey(key);
                }
                if (!quiet) {
                    xml.start("Deleted").element("Key", key).end();
                }
            } catch (S3Exception e) {
                xml.start("Error").element("Key", key).element("Code", e.code()).element("Message", e.getMessage())
                        .end();
            }
        }
        Exchanges.xml(r.exchange(), 200, xml.toString());
    }
}
