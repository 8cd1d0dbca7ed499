/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.CryptoException;
import io.hybris.DecryptionFailedException;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * Authenticated encryption of one stored version of a value: chunked AES-256-GCM under a fresh random data key
 * and a fresh random nonce, in a STREAM-like construction so that a streaming path can encrypt and decrypt chunk
 * by chunk and verify each chunk before releasing its plaintext.
 *
 * <pre>{@code
 * SecureRandom random = new SecureRandom();
 * byte[] dataKey = ValueCipher.newDataKey(random);             // one per stored version, never reused
 * byte[] stored = ValueCipher.encrypt(dataKey, value, random);  // what the clouds receive; hash this
 * byte[] value2 = ValueCipher.decrypt(dataKey, stored);        // throws DecryptionFailedException, never garbage
 * }</pre>
 *
 * <h2>Format (version 1)</h2>
 * <pre>
 * offset  size  field
 * 0       1     format version, 1
 * 1       4     chunk size C in plaintext bytes, big-endian, {@value #MIN_CHUNK_SIZE}..{@value #MAX_CHUNK_SIZE}
 * 5       12    random base nonce N
 * 17      ...   chunks 0..n-1, each = AES/GCM/NoPadding ciphertext of min(C, remaining) plaintext bytes
 *               followed by its 16-byte tag; every chunk but the last holds exactly C plaintext bytes
 * </pre>
 * Chunk {@code i} is encrypted with nonce {@code N} whose last 4 bytes are XORed with the big-endian {@code i},
 * and with additional authenticated data {@code version || C || i (4 bytes, big-endian) || final} where
 * {@code final} is 1 for the last chunk and 0 otherwise. The chunk index and final flag make truncation (dropping
 * trailing chunks), reordering, swapping and appending detectable; the version and chunk size in the AAD make
 * every header byte authenticated (a changed chunk size would otherwise go unnoticed in a one-chunk value); the
 * nonce is authenticated by GCM itself. An empty plaintext is exactly one empty final chunk. The total length
 * is {@link #ciphertextLength(long, int)}: {@value #HEADER_BYTES} + plaintext + {@value #TAG_BYTES} per chunk.
 * A decoder also accepts an empty final chunk after full chunks (which a streaming encoder that does not know
 * the length in advance may produce); this encoder never writes one.
 *
 * <p>Use a data key for one value only ({@link #newDataKey} per stored version); the random base nonce keeps even
 * two encryptions under the same key distinct.
 *
 * <p>Thread-safe: all methods are static; each thread keeps its own {@link Cipher}, re-initialised on every call.
 * Arguments must not be {@code null}.
 */
public final class ValueCipher {
    /** Length of a data key: AES-256. */
    public static final int DATA_KEY_BYTES = 32;
    /** The format version this class writes and the only one it reads. */
    public static final int FORMAT_VERSION = 1;
    /** Header length: version, chunk size, base nonce. */
    public static final int HEADER_BYTES = 1 + 4 + 12;
    /** GCM nonce length. */
    public static final int NONCE_BYTES = 12;
    /** GCM tag length appended to every chunk. */
    public static final int TAG_BYTES = 16;
    /** Chunk size used by {@link #encrypt(byte[], byte[], SecureRandom)}: 64 KiB. */
    public static final int DEFAULT_CHUNK_SIZE = 64 * 1024;
    /** Smallest accepted chunk size: 1 KiB. */
    public static final int MIN_CHUNK_SIZE = 1024;
    /** Largest accepted chunk size: 16 MiB. */
    public static final int MAX_CHUNK_SIZE = 16 * 1024 * 1024;

    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final int AAD_BYTES = 1 + 4 + 4 + 1;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    /*
     * Cipher.getInstance costs a provider lookup and a new GCM engine, about 1 us here: as much as encrypting a
     * whole 1 KiB value. A Cipher is not thread-safe, so each thread keeps its own; every use re-initialises it
     * with the value's key and a per-chunk nonce.
     */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(ValueCipher::newCipher);

    private ValueCipher() {
    }

    /** A fresh random 256-bit data key drawn from {@code random}. */
    public static byte[] newDataKey(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        byte[] key = new byte[DATA_KEY_BYTES];
        random.nextBytes(key);
        return key;
    }

    /**
     * Encrypts {@code plaintext} in {@value #DEFAULT_CHUNK_SIZE}-byte chunks.
     *
     * @param dataKey   a {@value #DATA_KEY_BYTES}-byte key used for this value only
     * @param plaintext the value
     * @param random    source of the base nonce
     * @return the ciphertext in the format described above, {@code ciphertextLength(plaintext.length, 65536)} long
     * @throws IllegalArgumentException if the key is not {@value #DATA_KEY_BYTES} bytes or the ciphertext would
     *                                  not fit in an array
     */
    public static byte[] encrypt(byte[] dataKey, byte[] plaintext, SecureRandom random) {
        return encrypt(dataKey, plaintext, random, DEFAULT_CHUNK_SIZE);
    }

    /**
     * Encrypts {@code plaintext} in chunks of {@code chunkSize} plaintext bytes.
     *
     * @param chunkSize plaintext bytes per chunk, {@value #MIN_CHUNK_SIZE}..{@value #MAX_CHUNK_SIZE}
     * @throws IllegalArgumentException if the key is not {@value #DATA_KEY_BYTES} bytes, the chunk size is out of
     *                                  range, or the ciphertext would not fit in an array
     * @see #encrypt(byte[], byte[], SecureRandom)
     */
    public static byte[] encrypt(byte[] dataKey, byte[] plaintext, SecureRandom random, int chunkSize) {
        Objects.requireNonNull(dataKey, "dataKey");
        Objects.requireNonNull(plaintext, "plaintext");
        Objects.requireNonNull(random, "random");
        if (dataKey.length != DATA_KEY_BYTES) {
            throw new IllegalArgumentException("data key has " + dataKey.length + " bytes; AES-256 needs "
                    + DATA_KEY_BYTES);
        }
        long total = ciphertextLength(plaintext.length, chunkSize);
        if (total > MAX_ARRAY) {
            throw new IllegalArgumentException("a " + plaintext.length + "-byte value encrypts to " + total
                    + " bytes, more than an array holds");
        }
        int chunks = chunkCount(plaintext.length, chunkSize);
        byte[] out = new byte[(int) total];
        out[0] = (byte) FORMAT_VERSION;
        putInt(out, 1, chunkSize);
        byte[] baseNonce = new byte[NONCE_BYTES];
        random.nextBytes(baseNonce);
        System.arraycopy(baseNonce, 0, out, 5, NONCE_BYTES);

        SecretKeySpec key = new SecretKeySpec(dataKey, "AES");
        Cipher cipher = CIPHERS.get();
        byte[] nonce = new byte[NONCE_BYTES];
        byte[] aad = newAad(chunkSize);
        int in = 0;
        int o = HEADER_BYTES;
        try {
            for (int i = 0; i < chunks; i++) {
                int len = Math.min(chunkSize, plaintext.length - in);
                boolean last = i == chunks - 1;
                chunkNonce(baseNonce, i, nonce);
                chunkAad(aad, i, last);
                cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
                cipher.updateAAD(aad);
                o += cipher.doFinal(plaintext, in, len, out, o);
                in += len;
            }
        } catch (GeneralSecurityException e) {
            throw new CryptoException("AES-256-GCM encryption failed in the JDK provider: " + e, e);
        }
        if (o != out.length) {
            throw new IllegalStateException("wrote " + o + " ciphertext bytes, expected " + out.length);
        }
        return out;
    }

    /**
     * Decrypts and authenticates a value encrypted by {@link #encrypt}. Every chunk is verified; on any failure
     * nothing is returned.
     *
     * @param dataKey    the value's {@value #DATA_KEY_BYTES}-byte data key
     * @param ciphertext the stored bytes
     * @return the plaintext
     * @throws DecryptionFailedException if the key has the wrong length, the header is malformed (unknown
     *                                   version, chunk size out of range, truncated, trailing bytes), or a chunk
     *                                   does not authenticate (wrong key, altered, truncated, reordered or
     *                                   swapped chunks); the message names the chunk index and the reason
     */
    public static byte[] decrypt(byte[] dataKey, byte[] ciphertext) {
        Objects.requireNonNull(dataKey, "dataKey");
        Objects.requireNonNull(ciphertext, "ciphertext");
        if (dataKey.length != DATA_KEY_BYTES) {
            throw new DecryptionFailedException("data key has " + dataKey.length + " bytes, expected "
                    + DATA_KEY_BYTES);
        }
        if (ciphertext.length < HEADER_BYTES) {
            throw new DecryptionFailedException("ciphertext truncated: " + ciphertext.length
                    + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
        }
        int version = ciphertext[0] & 0xff;
        if (version != FORMAT_VERSION) {
            throw new DecryptionFailedException("unknown ciphertext format version " + version + " (this client reads "
                    + FORMAT_VERSION + ")");
        }
        int chunkSize = getInt(ciphertext, 1);
        if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
            throw new DecryptionFailedException("bad chunk size " + Integer.toUnsignedString(chunkSize)
                    + " in ciphertext header (must be " + MIN_CHUNK_SIZE + ".." + MAX_CHUNK_SIZE + ")");
        }
        long body = ciphertext.length - HEADER_BYTES;
        if (body < TAG_BYTES) {
            throw new DecryptionFailedException("ciphertext truncated: chunk 0 has " + body
                    + " bytes, shorter than its " + TAG_BYTES + "-byte tag");
        }
        long stride = (long) chunkSize + TAG_BYTES;
        int chunks = (int) ((body + stride - 1) / stride);
        long lastLength = body - (chunks - 1) * stride;
        if (lastLength < TAG_BYTES) {
            throw new DecryptionFailedException("ciphertext truncated or has trailing bytes: chunk " + (chunks - 1)
                    + " (last) has " + lastLength + " bytes, shorter than its " + TAG_BYTES + "-byte tag");
        }
        byte[] out = new byte[(int) (body - (long) chunks * TAG_BYTES)];

        byte[] baseNonce = Arrays.copyOfRange(ciphertext, 5, HEADER_BYTES);
        SecretKeySpec key = new SecretKeySpec(dataKey, "AES");
        Cipher cipher = CIPHERS.get();
        byte[] nonce = new byte[NONCE_BYTES];
        byte[] aad = newAad(chunkSize);
        int in = HEADER_BYTES;
        int o = 0;
        int i = 0;
        try {
            for (; i < chunks; i++) {
                boolean last = i == chunks - 1;
                int len = last ? (int) lastLength : (int) stride;
                chunkNonce(baseNonce, i, nonce);
                chunkAad(aad, i, last);
                cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
                cipher.updateAAD(aad);
                o += cipher.doFinal(ciphertext, in, len, out, o);
                in += len;
            }
        } catch (AEADBadTagException e) {
            Arrays.fill(out, (byte) 0);
            throw new DecryptionFailedException("chunk " + i + " of " + chunks + (i == chunks - 1 ? " (last)" : "")
                    + " failed authentication: wrong data key, or the ciphertext was altered, truncated, reordered"
                    + " or has extra chunks", e);
        } catch (GeneralSecurityException e) {
            Arrays.fill(out, (byte) 0);
            throw new DecryptionFailedException("chunk " + i + " of " + chunks + " could not be decrypted: " + e, e);
        }
        if (o != out.length) {
            Arrays.fill(out, (byte) 0);
            throw new DecryptionFailedException("decrypted " + o + " bytes, expected " + out.length);
        }
        return out;
    }

    /**
     * The exact ciphertext length {@link #encrypt} produces for {@code plaintextLength} bytes in chunks of
     * {@code chunkSize}: {@value #HEADER_BYTES} + plaintextLength + {@value #TAG_BYTES} × max(1, ⌈plaintextLength /
     * chunkSize⌉).
     *
     * @throws IllegalArgumentException if the length is negative or the chunk size is out of range
     */
    public static long ciphertextLength(long plaintextLength, int chunkSize) {
        checkChunkSize(chunkSize);
        if (plaintextLength < 0) {
            throw new IllegalArgumentException("plaintext length " + plaintextLength + " is negative");
        }
        long chunks = plaintextLength == 0 ? 1 : (plaintextLength - 1) / chunkSize + 1;
        return HEADER_BYTES + plaintextLength + chunks * TAG_BYTES;
    }

    /**
     * The plaintext length of a ciphertext of {@code ciphertextLength} bytes written by {@link #encrypt} in chunks
     * of {@code chunkSize}: the inverse of {@link #ciphertextLength}; -1 if no plaintext length encrypts to that
     * many bytes.
     *
     * @throws IllegalArgumentException if the chunk size is out of range
     */
    public static long plaintextLength(long ciphertextLength, int chunkSize) {
        checkChunkSize(chunkSize);
        long body = ciphertextLength - HEADER_BYTES;
        if (body < TAG_BYTES) {
            return -1;
        }
        long chunks = Math.max(1, (body + chunkSize + TAG_BYTES - 1) / (chunkSize + TAG_BYTES));
        long plaintext = body - chunks * TAG_BYTES;
        return plaintext >= 0 && ciphertextLength(plaintext, chunkSize) == ciphertextLength ? plaintext : -1;
    }

    private static void checkChunkSize(int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE || chunkSize > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " is out of range: use "
                    + MIN_CHUNK_SIZE + " (1 KiB) to " + MAX_CHUNK_SIZE + " (16 MiB) bytes");
        }
    }

    private static int chunkCount(int plaintextLength, int chunkSize) {
        return plaintextLength == 0 ? 1 : (plaintextLength - 1) / chunkSize + 1;
    }

    private static byte[] newAad(int chunkSize) {
        byte[] aad = new byte[AAD_BYTES];
        aad[0] = (byte) FORMAT_VERSION;
        putInt(aad, 1, chunkSize);
        return aad;
    }

    private static void chunkAad(byte[] aad, int index, boolean last) {
        putInt(aad, 5, index);
        aad[9] = (byte) (last ? 1 : 0);
    }

    private static void chunkNonce(byte[] baseNonce, int index, byte[] nonce) {
        System.arraycopy(baseNonce, 0, nonce, 0, NONCE_BYTES);
        nonce[8] ^= (byte) (index >>> 24);
        nonce[9] ^= (byte) (index >>> 16);
        nonce[10] ^= (byte) (index >>> 8);
        nonce[11] ^= (byte) index;
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    private static int getInt(byte[] b, int off) {
        return (b[off] & 0xff) << 24 | (b[off + 1] & 0xff) << 16 | (b[off + 2] & 0xff) << 8 | (b[off + 3] & 0xff);
    }

    private static Cipher newCipher() {
        try {
            return Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks " + TRANSFORMATION, e);
        }
    }
}
