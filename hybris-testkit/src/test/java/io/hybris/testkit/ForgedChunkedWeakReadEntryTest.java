/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.crypto.EnvelopeKeyProvider;
import io.hybris.metadata.InMemoryMetadataStore;
import io.hybris.spi.ValueCache;
import io.hybris.spi.VersionName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.crypto.SecretKey;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cache.md: "with {@code envelope} encryption a forged entry fails authenticated decryption (a miss), but an old
 * genuine entry can still be replayed". A chunked value's chunks are each sealed on their own (docs/streaming.md,
 * "Encryption"), their position and number bound only by the manifest, which a bounded-staleness entry carries
 * unauthenticated: the owner of the cache takes the genuine entry of an envelope-encrypted 3-chunk value (clients no
 * longer write such entries, {@link UnservableWeakEntriesNotWrittenTest}, but older ones did), drops the
 * last chunk from its manifest (length 2 chunks), re-hashes the manifest into the embedded metadata (the data-key
 * record copied unchanged) and writes the entry back. No key is needed, every chunk still decrypts, and the
 * bounded-staleness read returned the first two thirds of the value as the value: a forgery, not a replay.
 */
class ForgedChunkedWeakReadEntryTest {
    private static final int CHUNK = 64 << 10;
    private static final String PREFIX = "hybris/";
    private final SecretKey kek = EnvelopeKeyProvider.generateKek();
    private final OpenedClients opened = new OpenedClients();

    @AfterEach
    void close() {
        opened.close();
    }

    @Test
    void aManifestCutShortInABoundedStalenessEntryIsNotServedAsTheValue() throws Exception {
        MapCache memcached = new MapCache();
        InMemoryMetadataStore metadata = new InMemoryMetadataStore();
        List<io.hybris.cloud.InMemoryCloudStore> clouds = OpenedClients.inMemoryClouds(3);
        Hybris victim = opened.open(OpenedClients.config(metadata, clouds)
                .clientId("victim").deadline(Duration.ofSeconds(20)).chunkSize(CHUNK).chunkThreshold(CHUNK)
                .encryption(EnvelopeKeyProvider.of(Map.of("k1", kek), "k1"))
                .cache(CacheSettings.builder().stalenessTime(Duration.ofMinutes(5)).cache(memcached).build()));
        byte[] value = StreamingFixture.value(3 * CHUNK, 7);
        victim.put("docs", "video", value);
        String key = VersionName.keyPrefix(PREFIX, "docs", "video") + "~time";

        memcached.entries.put(key, new ValueCache.Versioned(cutToTwoChunks(genuineEntry(metadata, clouds)), 99));

        byte[] read = victim.get("docs", "video", ReadOptions.boundedStalenessTime()).orElseThrow();
        assertThat(read.length).as("the forged entry's value length").isEqualTo(value.length);
        assertThat(Arrays.equals(read, value)).isTrue();
    }

    /**
     * The genuine bounded-staleness entry of "docs/video" as clients wrote it before they stopped writing entries they
     * refuse (its metadata from the store, its manifest from a cloud): what the cache's owner may still hold.
     */
    private static byte[] genuineEntry(InMemoryMetadataStore metadata, List<io.hybris.cloud.InMemoryCloudStore> clouds)
            throws Exception {
        byte[] md = metadata.read(new io.hybris.spi.MetadataKey("docs", "video")).orElseThrow().value();
        Class<?> codec = Class.forName("io.hybris.internal.MetadataCodec");
        Object meta = codec.getMethod("decode", byte[].class).invoke(null, (Object) md);
        byte[] manifest = clouds.stream().flatMap(c -> c.list(PREFIX).stream()
                        .filter(o -> VersionName.parse(PREFIX, o.key()).isPresent())
                        .map(o -> c.get(o.key(), Long.MAX_VALUE).orElseThrow()))
                .findFirst().orElseThrow();
        java.lang.reflect.Method encode = Class.forName("io.hybris.internal.CacheEntryCodec").getDeclaredMethod(
                "encode", int.class, long.class, String.class, meta.getClass(), byte[].class);
        encode.setAccessible(true);
        return (byte[]) encode.invoke(null, 1, System.currentTimeMillis(), "docs/video", meta, manifest);
    }

    /** The genuine entry with its manifest's third chunk dropped, its metadata re-hashed: self-consistent. */
    private static byte[] cutToTwoChunks(byte[] entry) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(entry);
        int magic = in.get() & 0xff;
        int kind = in.get() & 0xff;
        in.getLong(); // known-at: replaced by now
        byte[] name = take(in, (int) varint(in));
        // the metadata codec is internal to io.hybris.core (the tests run on the class path: reached reflectively)
        Class<?> codec = Class.forName("io.hybris.internal.MetadataCodec");
        Object meta = codec.getMethod("decode", byte[].class).invoke(null, (Object) take(in, (int) varint(in)));
        byte[] manifest = take(in, (int) varint(in));

        ByteBuffer m = ByteBuffer.wrap(manifest);
        int format = m.get() & 0xff;
        long chunkSize = varint(m);
        varint(m); // value length
        int tableStart = m.position();
        int clouds = m.get() & 0xff;
        for (int i = 0; i < clouds; i++) {
            int idLength = m.get() & 0xff;
            m.position(m.position() + idLength);
        }
        byte[] table = Arrays.copyOfRange(manifest, tableStart, m.position());
        long n = varint(m);
        assertThat(format).isEqualTo(1);
        assertThat(n).isEqualTo(3);
        int chunksStart = m.position();
        for (int i = 0; i < 2; i++) {
            varint(m);
            m.position(m.position() + 32);
            int k = m.get() & 0xff;
            assertThat(k).isZero();
            int cloudCount = m.get() & 0xff;
            m.position(m.position() + cloudCount);
        }
        byte[] twoChunks = Arrays.copyOfRange(manifest, chunksStart, m.position());
        ByteArrayOutputStream forged = new ByteArrayOutputStream();
        forged.write(format);
        writeVarint(forged, chunkSize);
        writeVarint(forged, 2 * chunkSize);
        forged.writeBytes(table);
        writeVarint(forged, 2);
        forged.writeBytes(twoChunks);
        byte[] forgedManifest = forged.toByteArray();

        RecordComponent[] parts = meta.getClass().getRecordComponents();
        Object[] args = new Object[parts.length];
        Class<?>[] types = new Class<?>[parts.length];
        for (int i = 0; i < parts.length; i++) {
            types[i] = parts[i].getType();
            args[i] = switch (parts[i].getName()) {
                case "sha256" -> MessageDigest.getInstance("SHA-256").digest(forgedManifest);
                case "size" -> (long) forgedManifest.length;
                case "chunked" -> types[i].getDeclaredConstructor(long.class, int.class)
                        .newInstance(2 * chunkSize, (int) chunkSize);
                default -> parts[i].getAccessor().invoke(meta);
            };
        }
        Object forgedMeta = meta.getClass().getDeclaredConstructor(types).newInstance(args);
        byte[] md = (byte[]) codec.getMethod("encode", meta.getClass()).invoke(null, forgedMeta);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(magic);
        out.write(kind);
        out.writeBytes(ByteBuffer.allocate(8).putLong(System.currentTimeMillis()).array());
        writeVarint(out, name.length);
        out.writeBytes(name);
        writeVarint(out, md.length);
        out.writeBytes(md);
        writeVarint(out, forgedManifest.length);
        out.writeBytes(forgedManifest);
        return out.toByteArray();
    }

    private static byte[] take(ByteBuffer in, int n) {
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    private static long varint(ByteBuffer in) {
        long result = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.get() & 0xff;
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
    }

    private static void writeVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
