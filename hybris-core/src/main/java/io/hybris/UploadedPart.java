/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.internal.PartReceipt;

/**
 * What {@link PartUploads#upload} stored for one part: its number and length, and the receipt
 * ({@link #toBytes()}, about 50 bytes per chunk) that completing the upload needs. Keep the bytes wherever the
 * upload's state lives and rebuild the part with {@link #fromBytes} in any client. Immutable.
 */
public final class UploadedPart {
    private final byte[] bytes;
    private final PartReceipt receipt;

    private UploadedPart(byte[] bytes, PartReceipt receipt) {
        this.bytes = bytes;
        this.receipt = receipt;
    }

    static UploadedPart of(PartReceipt receipt) {
        return new UploadedPart(receipt.encode(), receipt);
    }

    /**
     * A part from the bytes of its {@link #toBytes()}.
     *
     * @throws InvalidRequestException if they are not a part's receipt
     */
    public static UploadedPart fromBytes(byte[] bytes) {
        if (bytes == null) {
            throw new InvalidRequestException("a part's receipt must not be null");
        }
        byte[] copy = bytes.clone();
        return new UploadedPart(copy, PartReceipt.decode(copy));
    }

    /** The part number (1 to 10,000). */
    public int partNumber() {
        return receipt.part();
    }

    /** The part's length in bytes. */
    public long size() {
        return receipt.length();
    }

    /** The version of the upload the part belongs to ({@link PartUpload#version()}). */
    public String uploadVersion() {
        return receipt.version();
    }

    /** The receipt as bytes, for {@link #fromBytes}. */
    public byte[] toBytes() {
        return bytes.clone();
    }

    PartReceipt receipt() {
        return receipt;
    }

    @Override
    public String toString() {
        return "UploadedPart[" + partNumber() + ", " + size() + " bytes, upload " + uploadVersion() + "]";
    }
}
