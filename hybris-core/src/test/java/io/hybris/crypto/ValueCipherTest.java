/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.DecryptionFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValueCipherTest {
    private static final int H = ValueCipher.HEADER_BYTES;
    private static final int T = ValueCipher.TAG_BYTES;

    /*
     * Plaintexts come from seeded Randoms so failures reproduce; keys and nonces come from a real SecureRandom,
     * as in production: a seeded one would repeat the same key and nonce in every test, which the JDK's GCM
     * rightly refuses ("Cannot reuse iv for GCM encryption") on a thread's cached Cipher.
     */
    private final SecureRandom random = new SecureRandom();
    private final byte[] key = ValueCipher.newDataKey(random);

    private static byte[] bytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static int[] sizesFor(int chunk) {
        return new int[] {0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 7, 1 << 20};
    }

    @ParameterizedTest
    @ValueSource(ints = {ValueCipher.MIN_CHUNK_SIZE, 4096, ValueCipher.DEFAULT_CHUNK_SIZE, 1 << 20})
    void roundTripsAndHasTheAnnouncedLength(int chunk) {
        for (int size : sizesFor(chunk)) {
            byte[] plain = bytes(size, size);
            byte[] sealed = ValueCipher.encrypt(key, plain, random, chunk);

            assertThat((long) sealed.length).as("size %d chunk %d", size, chunk)
                    .isEqualTo(ValueCipher.ciphertextLength(size, chunk));
            assertThat(ValueCipher.decrypt(key, sealed)).as("size %d chunk %d", size, chunk).isEqualTo(plain);
        }
    }

    @Test
    void defaultChunkSizeIs64KiB() {
        byte[] plain = bytes(200_000, 1);
        byte[] sealed = ValueCipher.encrypt(key, plain, random);

        assertThat(Arrays.copyOfRange(sealed, 1, 5)).containsExactly(0, 1, 0, 0);
        assertThat((long) sealed.length).isEqualTo(ValueCipher.ciphertextLength(plain.length, 65536));
        assertThat(ValueCipher.decrypt(key, sealed)).isEqualTo(plain);
    }

    @Test
    void ciphertextLengthFormula() {
        assertThat(ValueCipher.ciphertextLength(0, 1024)).isEqualTo(H + T);
        assertThat(ValueCipher.ciphertextLength(1, 1024)).isEqualTo(H + 1 + T);
        assertThat(ValueCipher.ciphertextLength(1024, 1024)).isEqualTo(H + 1024 + T);
        assertThat(ValueCipher.ciphertextLength(1025, 1024)).isEqualTo(H + 1025 + 2 * T);
        assertThat(ValueCipher.ciphertextLength(1L << 20, 65536)).isEqualTo(H + (1L << 20) + 16 * T);
        assertThat(ValueCipher.ciphertextLength(10L << 30, 16 << 20)).isEqualTo(H + (10L << 30) + 640 * T);
    }

    @Test
    void emptyPlaintextIsOneEmptyFinalChunk() {
        byte[] sealed = ValueCipher.encrypt(key, new byte[0], random);

        assertThat(sealed).hasSize(H + T);
        assertThat(sealed[0]).isEqualTo((byte) 1);
        assertThat(ValueCipher.decrypt(key, sealed)).isEmpty();
    }

    @Test
    void chunkSizeIsValidated() {
        for (int bad : new int[] {-1, 0, 1023, (16 << 20) + 1, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> ValueCipher.encrypt(key, new byte[1], random, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("chunk size " + bad)
                    .hasMessageContaining("1 KiB")
                    .hasMessageContaining("16 MiB");
            assertThatThrownBy(() -> ValueCipher.ciphertextLength(10, bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(ValueCipher.decrypt(key, ValueCipher.encrypt(key, new byte[5], random, 16 << 20))).hasSize(5);
        assertThatThrownBy(() -> ValueCipher.ciphertextLength(-1, 1024)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dataKeyLengthIsValidated() {
        assertThat(ValueCipher.newDataKey(random)).hasSize(32);
        assertThatThrownBy(() -> ValueCipher.encrypt(new byte[16], new byte[1], random))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
        byte[] sealed = ValueCipher.encrypt(key, new byte[1], random);
        assertThatThrownBy(() -> ValueCipher.decrypt(new byte[16], sealed))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("16 bytes");
    }

    @Test
    void freshNoncePerEncryption() {
        byte[] plain = bytes(3000, 7);
        byte[] a = ValueCipher.encrypt(key, plain, random, 1024);
        byte[] b = ValueCipher.encrypt(key, plain, random, 1024);

        assertThat(a).isNotEqualTo(b);
        assertThat(Arrays.copyOfRange(a, 5, H)).isNotEqualTo(Arrays.copyOfRange(b, 5, H));
        assertThat(ValueCipher.decrypt(key, a)).isEqualTo(plain);
        assertThat(ValueCipher.decrypt(key, b)).isEqualTo(plain);
    }

    @Test
    void freshDataKeys() {
        assertThat(ValueCipher.newDataKey(random)).isNotEqualTo(ValueCipher.newDataKey(random));
    }

    @Test
    void everySingleByteFlipIsDetected() {
        int chunk = 1024;
        byte[] plain = bytes(2 * chunk + 100, 3);
        byte[] sealed = ValueCipher.encrypt(key, plain, random, chunk);
        int c0 = H;
        int c1 = H + chunk + T;
        int c2 = H + 2 * (chunk + T);
        List<Integer> positions = new ArrayList<>(List.of(
                0, 1, 2, 3, 4,                                  // version, chunk size
                5, 10, H - 1,                                   // base nonce
                c0, c0 + 500, c0 + chunk - 1,                   // chunk 0 ciphertext
                c0 + chunk, c0 + chunk + T - 1,                 // chunk 0 tag
                c1, c1 + chunk - 1, c1 + chunk + 7,             // chunk 1 ciphertext and tag
                c2, c2 + 99, c2 + 100, sealed.length - 1));     // last chunk ciphertext and tag
        for (int i = 0; i < sealed.length; i += 97) {
            positions.add(i);
        }
        for (int pos : positions) {
            for (int bit : new int[] {0x01, 0x80}) {
                byte[] bad = sealed.clone();
                bad[pos] ^= (byte) bit;
                assertThatThrownBy(() -> ValueCipher.decrypt(key, bad))
                        .as("byte %d bit %x", pos, bit)
                        .isInstanceOf(DecryptionFailedException.class);
            }
        }
    }

    @Test
    void aChangedChunkSizeIsDetectedEvenInAOneChunkValue() {
        byte[] sealed = ValueCipher.encrypt(key, bytes(100, 1), random, 65536);
        byte[] bad = sealed.clone();
        bad[3] ^= 0x01; // 65536 -> 65792: still valid, same one-chunk layout, so only the AAD catches it

        assertThatThrownBy(() -> ValueCipher.decrypt(key, bad))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("chunk 0 of 1");
    }

    @Test
    void headerErrorsNameTheReason() {
        byte[] sealed = ValueCipher.encrypt(key, bytes(10, 1), random, 1024);

        byte[] version = sealed.clone();
        version[0] = 2;
        assertThatThrownBy(() -> ValueCipher.decrypt(key, version))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("unknown ciphertext format version 2");

        byte[] chunkSize = sealed.clone();
        chunkSize[1] = (byte) 0x80;
        assertThatThrownBy(() -> ValueCipher.decrypt(key, chunkSize))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("bad chunk size 2147484672");

        assertThatThrownBy(() -> ValueCipher.decrypt(key, Arrays.copyOf(sealed, H - 1)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> ValueCipher.decrypt(key, Arrays.copyOf(sealed, H + T - 1)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> ValueCipher.decrypt(key, new byte[0]))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("truncated");
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }

    @Test
    void truncationReorderingAndAppendingAreDetected() {
        int chunk = 1024;
        int stride = chunk + T;
        byte[] sealed = ValueCipher.encrypt(key, bytes(3 * chunk + 10, 5), random, chunk); // 4 chunks
        byte[] header = Arrays.copyOf(sealed, H);
        byte[] c0 = Arrays.copyOfRange(sealed, H, H + stride);
        byte[] c1 = Arrays.copyOfRange(sealed, H + stride, H + 2 * stride);
        byte[] c2 = Arrays.copyOfRange(sealed, H + 2 * stride, H + 3 * stride);
        byte[] c3 = Arrays.copyOfRange(sealed, H + 3 * stride, sealed.length);
        assertThat(ValueCipher.decrypt(key, concat(header, c0, c1, c2, c3))).hasSize(3 * chunk + 10);

        // dropping the final chunk: chunk 2 is now last but was sealed as non-final
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c0, c1, c2)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 2 of 3 (last)");
        // truncating by one chunk's worth of bytes, cutting through the last two chunks
        assertThatThrownBy(() -> ValueCipher.decrypt(key, Arrays.copyOf(sealed, sealed.length - stride)))
                .isInstanceOf(DecryptionFailedException.class);
        // dropping a middle chunk
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c0, c2, c3)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 1 of 3");
        // swapping two chunks
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c1, c0, c2, c3)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 0 of 4");
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c0, c2, c1, c3)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 1 of 4");
        // a chunk repeated
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c0, c0, c1, c2, c3)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 1 of 5");
        // appended bytes: too few to be a chunk, a tag's worth, a whole copied chunk
        for (int extra : new int[] {1, T - 1, T, T + 5}) {
            assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(sealed, new byte[extra])))
                    .as("%d extra bytes", extra)
                    .isInstanceOf(DecryptionFailedException.class);
        }
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(sealed, c3)))
                .isInstanceOf(DecryptionFailedException.class);
        // a chunk of another encryption under the same key (different base nonce)
        byte[] other = ValueCipher.encrypt(key, bytes(3 * chunk + 10, 5), random, chunk);
        byte[] otherC1 = Arrays.copyOfRange(other, H + stride, H + 2 * stride);
        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(header, c0, otherC1, c2, c3)))
                .isInstanceOf(DecryptionFailedException.class).hasMessageContaining("chunk 1 of 4");
    }

    @Test
    void trailingBytesAfterAFullFinalChunkAreReported() {
        byte[] sealed = ValueCipher.encrypt(key, bytes(2048, 5), random, 1024);

        assertThatThrownBy(() -> ValueCipher.decrypt(key, concat(sealed, new byte[3])))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("trailing bytes")
                .hasMessageContaining("chunk 2");
    }

    @Test
    void wrongKeyIsDetectedAndNamesTheChunk() {
        byte[] sealed = ValueCipher.encrypt(key, bytes(5000, 9), random, 1024);
        byte[] otherKey = ValueCipher.newDataKey(random);

        assertThatThrownBy(() -> ValueCipher.decrypt(otherKey, sealed))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("chunk 0 of 5")
                .hasMessageContaining("wrong data key");
        assertThatThrownBy(() -> ValueCipher.decrypt(otherKey, ValueCipher.encrypt(key, new byte[0], random)))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("chunk 0 of 1 (last)");
    }

    @Test
    void plaintextMarkerNeverAppearsInCiphertext() {
        byte[] marker = "HYBRIS-PLAINTEXT-MARKER-7f3a".getBytes(StandardCharsets.US_ASCII);
        byte[] plain = new byte[200_000];
        for (int i = 0; i + marker.length <= plain.length; i += marker.length + 3) {
            System.arraycopy(marker, 0, plain, i, marker.length);
        }
        for (int chunk : new int[] {1024, 65536}) {
            byte[] sealed = ValueCipher.encrypt(key, plain, random, chunk);
            assertThat(indexOf(sealed, marker)).as("chunk %d", chunk).isEqualTo(-1);
            assertThat(indexOf(sealed, Arrays.copyOf(marker, 8))).as("chunk %d", chunk).isEqualTo(-1);
            assertThat(ValueCipher.decrypt(key, sealed)).isEqualTo(plain);
        }
    }

    @Test
    void aTagSizedTailIsParsedAsAnEmptyFinalChunkAndRejected() {
        // the decoder derives the layout from the length alone, so n full chunks plus a tag's worth of bytes
        // parse as an empty final chunk (a streaming encoder may write one); chunk 0 was sealed as final
        byte[] sealed = ValueCipher.encrypt(key, bytes(1024, 1), random, 1024);
        byte[] withEmptyTail = concat(sealed, new byte[T]);

        assertThatThrownBy(() -> ValueCipher.decrypt(key, withEmptyTail))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("chunk 0 of 2");
    }

    /** An independent implementation of the documented format, straight on the JDK. */
    private static byte[] sealPerSpec(byte[] key, byte[] plain, int chunk, byte[] nonce, boolean emptyTail)
            throws Exception {
        List<byte[]> parts = new ArrayList<>();
        java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(H).put((byte) 1).putInt(chunk).put(nonce);
        parts.add(header.array());
        int chunks = plain.length == 0 ? 1 : (plain.length + chunk - 1) / chunk;
        if (emptyTail) {
            chunks++;
        }
        for (int i = 0; i < chunks; i++) {
            byte[] n = nonce.clone();
            for (int b = 0; b < 4; b++) {
                n[8 + b] ^= (byte) (i >>> (24 - 8 * b));
            }
            javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            c.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(key, "AES"),
                    new javax.crypto.spec.GCMParameterSpec(128, n));
            c.updateAAD(java.nio.ByteBuffer.allocate(10).put((byte) 1).putInt(chunk).putInt(i)
                    .put((byte) (i == chunks - 1 ? 1 : 0)).array());
            int from = Math.min(plain.length, i * chunk);
            parts.add(c.doFinal(Arrays.copyOfRange(plain, from, Math.min(plain.length, from + chunk))));
        }
        return concat(parts.toArray(new byte[0][]));
    }

    @Test
    void matchesTheDocumentedFormat() throws Exception {
        byte[] plain = bytes(3 * 1024 + 5, 11);
        byte[] sealed = ValueCipher.encrypt(key, plain, random, 1024);
        byte[] nonce = Arrays.copyOfRange(sealed, 5, H);

        assertThat(sealPerSpec(key, plain, 1024, nonce, false)).isEqualTo(sealed);
        byte[] empty = ValueCipher.encrypt(key, new byte[0], random, 1024);
        assertThat(sealPerSpec(key, new byte[0], 1024, Arrays.copyOfRange(empty, 5, H), false)).isEqualTo(empty);
    }

    @Test
    void decodesAnEmptyFinalChunkAfterFullChunks() throws Exception {
        byte[] plain = bytes(2 * 1024, 12);
        byte[] streamed = sealPerSpec(key, plain, 1024, bytes(12, 13), true);

        assertThat(streamed).hasSize(H + 2 * (1024 + T) + T);
        assertThat(ValueCipher.decrypt(key, streamed)).isEqualTo(plain);
    }

    @Test
    void manyThreadsShareNothing() throws Exception {
        int threads = 4;
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int seed = t;
            workers.add(new Thread(() -> {
                try {
                    SecureRandom r = new SecureRandom();
                    for (int i = 0; i < 200; i++) {
                        byte[] k = ValueCipher.newDataKey(r);
                        byte[] p = bytes(i * 37, seed * 1000L + i);
                        assertThat(ValueCipher.decrypt(k, ValueCipher.encrypt(k, p, r, 1024))).isEqualTo(p);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        assertThat(failures).isEmpty();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
