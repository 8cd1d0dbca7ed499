/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import org.w3c.dom.Element;

import java.io.IOException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/**
 * The body of a CompleteMultipartUpload: the parts it names, in its order, and the ETag an object of exactly those
 * parts has (the MD5 of their MD5s, a dash and their count; null if an ETag named is missing or not MD5 hex).
 */
record CompleteRequest(List<Element> parts, String etag) {
    /** Reads and parses the request's body; a body naming no part is malformed. */
    static CompleteRequest read(S3Request r) throws IOException {
        Element root = S3Xml.parse(r.readSmallBody(S3Xml.MAX_REQUEST_BYTES), "CompleteMultipartUpload");
        List<Element> named = S3Xml.children(root, "Part");
        if (named.isEmpty()) {
            throw S3Exception.malformedXml("CompleteMultipartUpload names no Part");
        }
        return new CompleteRequest(named, etagOf(named));
    }

    private static String etagOf(List<Element> named) {
        MessageDigest md5s = SigV4.digest("MD5");
        for (Element p : named) {
            String etag = S3Xml.text(p, "ETag");
            String hex = etag == null ? "" : ObjectMetadata.unquoted(etag);
            if (!hex.matches("[0-9a-fA-F]{32}")) {
                return null;
            }
            md5s.update(HexFormat.of().parseHex(hex));
        }
        return HexFormat.of().formatHex(md5s.digest()) + "-" + named.size();
    }
}
