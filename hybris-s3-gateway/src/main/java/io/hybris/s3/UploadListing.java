/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One page of ListMultipartUploads from the bucket's uploads in progress, as S3 pages them: uploads of keys under
 * {@code prefix}, in key order (UTF-8 bytes) and then upload id, after {@code key-marker} (and, for that key,
 * after {@code upload-id-marker}); keys with {@code delimiter} after the prefix rolled up into common prefixes,
 * each counting as one entry; at most {@code max-uploads} entries, truncated beyond with the next markers.
 */
final class UploadListing {
    /** One upload in progress. */
    record Entry(String key, String uploadId, long initiated) {
    }

    /**
     * A page: its uploads and common prefixes, whether more follow, and the markers to ask for them (the last
     * entry's key or common prefix, and its upload id if it is an upload).
     */
    record Page(List<Entry> uploads, List<String> prefixes, boolean truncated, String nextKeyMarker,
                String nextUploadIdMarker) {
    }

    private static final Comparator<Entry> ORDER = (a, b) -> {
        int byKey = Listings.compareUtf8(a.key(), b.key());
        return byKey != 0 ? byKey : a.uploadId().compareTo(b.uploadId());
    };

    private UploadListing() {
    }

    /** The page of {@code all} (in any order) that the parameters select; null parameters are absent. */
    static Page page(List<Entry> all, String prefix, String delimiter, String keyMarker, String uploadIdMarker,
                     int maxUploads) {
        List<Entry> sorted = new ArrayList<>(all);
        sorted.sort(ORDER);
        List<Entry> uploads = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String lastKey = null;
        String lastUploadId = null;
        for (Entry e : sorted) {
            if (!e.key().startsWith(prefix) || !afterMarkers(e, keyMarker, uploadIdMarker)) {
                continue;
            }
            String group = group(e.key(), prefix, delimiter);
            if (group != null && (group.equals(lastKey) || (keyMarker != null && keyMarker.startsWith(group)))) {
                continue; // rolled up into a prefix already listed, or into the one the marker is in
            }
            if (uploads.size() + prefixes.size() == maxUploads) {
                return new Page(uploads, prefixes, true, lastKey, lastUploadId);
            }
            if (group != null) {
                prefixes.add(group);
                lastKey = group;
                lastUploadId = null;
            } else {
                uploads.add(e);
                lastKey = e.key();
                lastUploadId = e.uploadId();
            }
        }
        return new Page(uploads, prefixes, false, null, null);
    }

    private static boolean afterMarkers(Entry e, String keyMarker, String uploadIdMarker) {
        if (keyMarker == null) {
            return true;
        }
        int c = Listings.compareUtf8(e.key(), keyMarker);
        return c > 0 || (c == 0 && uploadIdMarker != null && e.uploadId().compareTo(uploadIdMarker) > 0);
    }

    /** The common prefix {@code key} rolls up into (through the first delimiter after the prefix), or null. */
    private static String group(String key, String prefix, String delimiter) {
        if (delimiter == null) {
            return null;
        }
        int at = key.indexOf(delimiter, prefix.length());
        return at < 0 ? null : key.substring(0, at + delimiter.length());
    }

    /** The ListMultipartUploadsResult document of {@code page}; null parameters are absent. */
    static String xml(String bucket, Page page, String prefix, String delimiter, String keyMarker,
                      String uploadIdMarker, int max, boolean url) {
        S3Xml xml = S3Xml.document("ListMultipartUploadsResult").element("Bucket", bucket)
                .element("KeyMarker", Listings.enc(keyMarker == null ? "" : keyMarker, url))
                .element("UploadIdMarker", uploadIdMarker == null ? "" : uploadIdMarker)
                .element("Prefix", Listings.enc(prefix, url));
        if (delimiter != null) {
            xml.element("Delimiter", Listings.enc(delimiter, url));
        }
        if (url) {
            xml.element("EncodingType", "url");
        }
        xml.element("MaxUploads", max).element("IsTruncated", page.truncated());
        if (page.truncated()) {
            xml.element("NextKeyMarker", Listings.enc(page.nextKeyMarker() == null ? "" : page.nextKeyMarker(), url))
                    .element("NextUploadIdMarker", page.nextUploadIdMarker() == null ? ""
                            : page.nextUploadIdMarker());
        }
        for (Entry e : page.uploads()) {
            xml.start("Upload").element("Key", Listings.enc(e.key(), url)).element("UploadId", e.uploadId())
                    .element("StorageClass", "STANDARD").element("Initiated", S3Xml.time(e.initiated())).end();
        }
        for (String p : page.prefixes()) {
            xml.start("CommonPrefixes").element("Prefix", Listings.enc(p, url)).end();
        }
        return xml.toString();
    }
}
