/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cost;

/**
 * What a client asked of one cloud: requests by {@link RequestClass} and payload bytes each way, counted at the
 * cloud SPI (every {@code CloudStore} call the client made, including the orphan sweep, garbage collection and
 * latency probes; retries a provider's SDK makes inside one call are not seen). Bytes downloaded are those the
 * cloud returned (egress); a call that failed counts as a request and moved no bytes. Immutable.
 *
 * @param putListRequests {@link RequestClass#PUT_LIST} requests
 * @param getHeadRequests {@link RequestClass#GET_HEAD} requests
 * @param deleteRequests  {@link RequestClass#DELETE} requests
 * @param bytesUploaded   payload bytes stored by put calls that succeeded
 * @param bytesDownloaded payload bytes returned by get calls
 */
public record CloudUsage(long putListRequests, long getHeadRequests, long deleteRequests, long bytesUploaded,
                         long bytesDownloaded) {
    /** No requests, no bytes. */
    public static final CloudUsage NONE = new CloudUsage(0, 0, 0, 0, 0);

    /** The requests of class {@code c}. */
    public long requests(RequestClass c) {
        return switch (c) {
            case PUT_LIST -> putListRequests;
            case GET_HEAD -> getHeadRequests;
            case DELETE -> deleteRequests;
        };
    }

    /** Every request, whatever its class. */
    public long totalRequests() {
        return putListRequests + getHeadRequests + deleteRequests;
    }

    /** What was counted since {@code earlier}, a previous reading of the same counters. */
    public CloudUsage minus(CloudUsage earlier) {
        return new CloudUsage(putListRequests - earlier.putListRequests, getHeadRequests - earlier.getHeadRequests,
                deleteRequests - earlier.deleteRequests, bytesUploaded - earlier.bytesUploaded,
                bytesDownloaded - earlier.bytesDownloaded);
    }

    /** The volume this usage bills, with {@code storageGbMonths} of storage. */
    public BillableVolume billable(double storageGbMonths) {
        return new BillableVolume(putListRequests, getHeadRequests, deleteRequests, bytesDownloaded / CloudPrices.GB,
                storageGbMonths);
    }
}
