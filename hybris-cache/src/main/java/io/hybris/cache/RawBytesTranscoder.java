/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import net.rubyeye.xmemcached.transcoders.CachedData;
import net.rubyeye.xmemcached.transcoders.CompressionMode;
import net.rubyeye.xmemcached.transcoders.Transcoder;

/**
 * Stores byte arrays in memcached exactly as they are: flags 0, no serialization header, no compression (the
 * default xmemcached transcoder compresses values above 16 KiB and tags them with its own flags). Any entry is
 * read back as its raw bytes whatever its flags, so what Hybris checks is exactly what the server returned.
 */
final class RawBytesTranscoder implements Transcoder<byte[]> {
    static final RawBytesTranscoder INSTANCE = new RawBytesTranscoder();

    private RawBytesTranscoder() {
    }

    @Override
    public CachedData encode(byte[] value) {
        return new CachedData(0, value, value.length, -1);
    }

    @Override
    public byte[] decode(CachedData data) {
        return data.getData();
    }

    @Override
    public void setPrimitiveAsString(boolean primitiveAsString) {
        // not applicable: only byte arrays
    }

    @Override
    public void setPackZeros(boolean packZeros) {
        // not applicable: only byte arrays
    }

    @Override
    public void setCompressionThreshold(int threshold) {
        // never compresses
    }

    @Override
    public boolean isPrimitiveAsString() {
        return false;
    }

    @Override
    public boolean isPackZeros() {
        return false;
    }

    @Override
    public void setCompressionMode(CompressionMode mode) {
        // never compresses
    }
}
