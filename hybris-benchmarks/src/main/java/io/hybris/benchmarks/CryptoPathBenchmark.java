/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.benchmarks;

import io.hybris.crypto.ValueCipher;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The crypto work of Hybris's PUT and GET paths, side by side with the same work done by the raw JDK on the same
 * buffers in the same run:
 * <ul>
 *   <li>{@code hybrisPutPath}: a fresh data key, {@link ValueCipher#encrypt} (chunked AES-256-GCM, 64 KiB chunks,
 *       random nonce) and SHA-256 of the ciphertext, as PUT does; against {@code rawJdkEncryptAndHash}: one-shot
 *       JDK AES-256-GCM of the whole buffer with a reused {@link Cipher} and a counter nonce, then SHA-256;</li>
 *   <li>{@code hybrisGetPath}: SHA-256 of the stored ciphertext checked against the recorded hash, then
 *       {@link ValueCipher#decrypt}, as GET does; against {@code rawJdkHashAndDecrypt}: the same check, then
 *       one-shot JDK AES-256-GCM decryption.</li>
 * </ul>
 * Hashing is the same in both ({@code MessageDigest.getInstance} per call, as {@code Hashing.sha256} does), so the
 * ratio isolates the chunked format. Throughput mode: MB/s = ops/s × {@code valueBytes}, and the {@code bytes}
 * secondary result reports bytes/s directly.
 *
 * <pre>
 * mvn -B -q install -DskipTests &amp;&amp; java -jar hybris-benchmarks/target/benchmarks.jar CryptoPathBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(3)
public class CryptoPathBenchmark {
    private static final int TAG_BITS = 128;

    @Param({"65536", "1048576"})
    public int valueBytes;

    private final SecureRandom random = new SecureRandom();
    private byte[] value;

    private byte[] hybrisKey;
    private byte[] hybrisStored;
    private byte[] hybrisHash;

    private SecretKeySpec rawKey;
    private Cipher rawEncrypt;
    private Cipher rawDecrypt;
    private final byte[] rawNonce = new byte[12];
    private long rawCounter;
    private byte[] rawStoredNonce;
    private byte[] rawStored;
    private byte[] rawHash;

    /** Bytes processed; reported per second next to ops/s. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws GeneralSecurityException {
        value = new byte[valueBytes];
        new Random(1).nextBytes(value);

        hybrisKey = ValueCipher.newDataKey(random);
        hybrisStored = ValueCipher.encrypt(hybrisKey, value, random);
        hybrisHash = sha256(hybrisStored);

        rawKey = new SecretKeySpec(ValueCipher.newDataKey(random), "AES");
        rawEncrypt = Cipher.getInstance("AES/GCM/NoPadding");
        rawDecrypt = Cipher.getInstance("AES/GCM/NoPadding");
        random.nextBytes(rawNonce);
        rawStoredNonce = nextRawNonce();
        rawEncrypt.init(Cipher.ENCRYPT_MODE, rawKey, new GCMParameterSpec(TAG_BITS, rawStoredNonce));
        rawStored = rawEncrypt.doFinal(value);
        rawHash = sha256(rawStored);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fresh nonce per encryption without a SecureRandom call: the JDK refuses a repeated key and nonce. */
    private byte[] nextRawNonce() {
        long c = ++rawCounter;
        byte[] n = rawNonce.clone();
        for (int i = 0; i < 8; i++) {
            n[4 + i] ^= (byte) (c >>> (56 - 8 * i));
        }
        return n;
    }

    @Benchmark
    public byte[] hybrisPutPath(Counters counters) {
        byte[] dataKey = ValueCipher.newDataKey(random);
        byte[] stored = ValueCipher.encrypt(dataKey, value, random);
        counters.bytes += valueBytes;
        return sha256(stored);
    }

    @Benchmark
    public byte[] rawJdkEncryptAndHash(Counters counters) throws GeneralSecurityException {
        rawEncrypt.init(Cipher.ENCRYPT_MODE, rawKey, new GCMParameterSpec(TAG_BITS, nextRawNonce()));
        byte[] stored = rawEncrypt.doFinal(value);
        counters.bytes += valueBytes;
        return sha256(stored);
    }

    @Benchmark
    public byte[] hybrisGetPath(Counters counters) {
        if (!MessageDigest.isEqual(hybrisHash, sha256(hybrisStored))) {
            throw new IllegalStateException("hash mismatch");
        }
        byte[] plain = ValueCipher.decrypt(hybrisKey, hybrisStored);
        counters.bytes += valueBytes;
        return plain;
    }

    @Benchmark
    public byte[] rawJdkHashAndDecrypt(Counters counters) throws GeneralSecurityException {
        if (!MessageDigest.isEqual(rawHash, sha256(rawStored))) {
            throw new IllegalStateException("hash mismatch");
        }
        rawDecrypt.init(Cipher.DECRYPT_MODE, rawKey, new GCMParameterSpec(TAG_BITS, rawStoredNonce));
        byte[] plain = rawDecrypt.doFinal(rawStored);
        counters.bytes += valueBytes;
        return plain;
    }
}
