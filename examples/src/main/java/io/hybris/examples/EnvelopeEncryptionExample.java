/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.examples;

import io.hybris.Hybris;
import io.hybris.RewrapReport;
import io.hybris.crypto.EnvelopeKeyProvider;

import javax.crypto.SecretKey;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Envelope encryption and key rotation (docs/encryption.md): every version is encrypted (AES-256-GCM) under a fresh
 * data key, wrapped by a key-encryption key (KEK) that neither the clouds nor the metadata store ever see. Rotating
 * the KEK re-wraps the data keys in metadata without touching a cloud object. In production the KEKs come from a
 * PKCS#12 keystore ({@code hybris.crypto.kek.keystore}); here they are generated. Runs on the embedded default.
 */
public final class EnvelopeEncryptionExample {
    private EnvelopeEncryptionExample() {
    }

    /** Runs the example; the optional argument is the data directory. */
    public static void main(String[] args) {
        run(Path.of(args.length > 0 ? args[0] : "target/envelope-example").toAbsolutePath(), System.out);
    }

    /** Runs the example with data under {@code dir}, printing to {@code out}. */
    public static void run(Path dir, PrintStream out) {
        SecretKey kek2025 = EnvelopeKeyProvider.generateKek();
        SecretKey kek2026 = EnvelopeKeyProvider.generateKek();
        byte[] secret = "the launch code".getBytes(StandardCharsets.UTF_8);

        try (Hybris hybris = Hybris.open(EmbeddedSetup.under(dir)
                .encryption(EnvelopeKeyProvider.of(Map.of("kek-2025", kek2025), "kek-2025")).build())) {
            hybris.put("vault", "code", secret);
            out.println("stored encrypted under kek-2025");
        }
        // rotation: the new KEK becomes current, the old one stays until every data key is re-wrapped
        try (Hybris hybris = Hybris.open(EmbeddedSetup.under(dir).encryption(EnvelopeKeyProvider.of(
                Map.of("kek-2025", kek2025, "kek-2026", kek2026), "kek-2026")).build())) {
            RewrapReport report = hybris.rewrapDataKeys();
            out.println("rotated to kek-2026: " + report);
        }
        try (Hybris hybris = Hybris.open(EmbeddedSetup.under(dir)
                .encryption(EnvelopeKeyProvider.of(Map.of("kek-2026", kek2026), "kek-2026")).build())) {
            String back = new String(hybris.get("vault", "code").orElseThrow(), StandardCharsets.UTF_8);
            out.println("read with kek-2026 only: " + back);
        }
    }
}
