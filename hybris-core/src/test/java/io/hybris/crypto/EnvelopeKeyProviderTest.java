/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.crypto;

import io.hybris.DecryptionFailedException;
import io.hybris.HybrisConfigurationException;
import io.hybris.KeyUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

class EnvelopeKeyProviderTest {
    private static final char[] PASSWORD = "store-secret".toCharArray();

    private final SecretKey k1 = EnvelopeKeyProvider.generateKek();
    private final SecretKey k2 = EnvelopeKeyProvider.generateKek();
    private final byte[] dataKey = ValueCipher.newDataKey(new SecureRandom());

    private EnvelopeKeyProvider twoKeys(String current) {
        return EnvelopeKeyProvider.of(Map.of("k1", k1, "k2", k2), current);
    }

    private static String b64(SecretKey k) {
        return Base64.getEncoder().encodeToString(k.getEncoded());
    }

    /** The message, with every encoding of the key material checked to be absent. */
    private static void assertNoKeyMaterial(Throwable t, SecretKey... keys) {
        String text = String.valueOf(t.getMessage()) + " " + t;
        for (SecretKey k : keys) {
            assertThat(text).doesNotContain(b64(k))
                    .doesNotContain(b64(k).substring(0, 12))
                    .doesNotContain(Base64.getUrlEncoder().encodeToString(k.getEncoded()).substring(0, 12))
                    .doesNotContain(HexFormat.of().formatHex(k.getEncoded()).substring(0, 16));
        }
    }

    @Test
    void wrapUnwrapRoundTrip() {
        EnvelopeKeyProvider keys = twoKeys("k1");
        byte[] wrapped = keys.wrap(keys.currentKeyId(), dataKey);

        assertThat(keys.currentKeyId()).isEqualTo("k1");
        assertThat(wrapped).hasSize(60).hasSize(EnvelopeKeyProvider.WRAPPED_KEY_BYTES);
        assertThat(keys.unwrap("k1", wrapped)).isEqualTo(dataKey);
        assertThat(keys.unwrap("k2", keys.wrap("k2", dataKey))).isEqualTo(dataKey);
    }

    @Test
    void wrappedKeyHidesTheDataKeyAndUsesAFreshNonce() {
        EnvelopeKeyProvider keys = twoKeys("k1");
        byte[] a = keys.wrap("k1", dataKey);
        byte[] b = keys.wrap("k1", dataKey);

        assertThat(a).isNotEqualTo(b);
        assertThat(HexFormat.of().formatHex(a)).doesNotContain(HexFormat.of().formatHex(dataKey, 0, 8));
        assertThat(keys.unwrap("k1", a)).isEqualTo(keys.unwrap("k1", b));
    }

    @Test
    void otherConfiguredIdDoesNotAuthenticate() {
        EnvelopeKeyProvider keys = twoKeys("k1");
        byte[] wrapped = keys.wrap("k1", dataKey);

        assertThatThrownBy(() -> keys.unwrap("k2", wrapped))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("KEK 'k2'");
    }

    @Test
    void sameKekUnderAnotherIdDoesNotAuthenticate() {
        // the id is bound through the AAD: relabelling a wrapped key in metadata is caught even if both ids
        // happen to name the same KEK
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.of(Map.of("a", k1, "b", k1), "a");

        assertThatThrownBy(() -> keys.unwrap("b", keys.wrap("a", dataKey)))
                .isInstanceOf(DecryptionFailedException.class)
                .hasMessageContaining("KEK 'b'");
    }

    @Test
    void anotherKekWithTheSameIdDoesNotAuthenticate() {
        byte[] wrapped = EnvelopeKeyProvider.of(Map.of("k1", k1), "k1").wrap("k1", dataKey);
        EnvelopeKeyProvider impostor = EnvelopeKeyProvider.of(Map.of("k1", k2), "k1");

        Throwable t = catchThrowable(() -> impostor.unwrap("k1", wrapped));
        assertThat(t).isInstanceOf(DecryptionFailedException.class).hasMessageContaining("KEK 'k1'");
        assertNoKeyMaterial(t, k1, k2);
    }

    @Test
    void unknownIdIsUnavailableAndNamesIdsNotKeys() {
        EnvelopeKeyProvider keys = twoKeys("k1");

        Throwable unwrap = catchThrowable(() -> keys.unwrap("k-old", new byte[60]));
        assertThat(unwrap).isInstanceOf(KeyUnavailableException.class)
                .hasMessageContaining("'k-old'")
                .hasMessageContaining("[k1, k2]");
        assertNoKeyMaterial(unwrap, k1, k2);

        assertThatThrownBy(() -> keys.wrap("k-old", dataKey))
                .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("'k-old'");
    }

    @Test
    void corruptedWrappedKeyFails() {
        EnvelopeKeyProvider keys = twoKeys("k1");
        byte[] wrapped = keys.wrap("k1", dataKey);
        for (int pos : new int[] {0, 11, 12, 30, 43, 44, 59}) {
            byte[] bad = wrapped.clone();
            bad[pos] ^= 1;
            assertThatThrownBy(() -> keys.unwrap("k1", bad))
                    .as("byte %d", pos)
                    .isInstanceOf(DecryptionFailedException.class)
                    .hasMessageContaining("KEK 'k1'");
        }
        for (int len : new int[] {0, 32, 59, 61}) {
            assertThatThrownBy(() -> keys.unwrap("k1", java.util.Arrays.copyOf(wrapped, len)))
                    .as("length %d", len)
                    .isInstanceOf(DecryptionFailedException.class)
                    .hasMessageContaining(len + " bytes");
        }
    }

    @Test
    void wrapRejectsADataKeyOfTheWrongLength() {
        assertThatThrownBy(() -> twoKeys("k1").wrap("k1", new byte[16]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
    }

    @Test
    void ofValidatesAndCopies() {
        Map<String, SecretKey> keks = new LinkedHashMap<>(Map.of("k1", k1));
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.of(keks, "k1");
        keks.put("k2", k2);

        assertThat(keys.keyIds()).containsExactly("k1");
        assertThatThrownBy(() -> keys.keyIds().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of("k1", k1), "k9"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'k9'").hasMessageContaining("[k1]");
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of(), "k1"))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("'k1'");
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of("short", new SecretKeySpec(new byte[16], "AES")), "short"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'short'").hasMessageContaining("128-bit");
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of("mac", new SecretKeySpec(new byte[32], "HmacSHA256")), "mac"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'mac'").hasMessageContaining("HmacSHA256");
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of("bad id", k1), "bad id"))
                .isInstanceOf(HybrisConfigurationException.class).hasMessageContaining("'bad id'");
        assertThatThrownBy(() -> EnvelopeKeyProvider.of(Map.of("x".repeat(65), k1), "x"))
                .isInstanceOf(HybrisConfigurationException.class);
        assertThat(EnvelopeKeyProvider.of(Map.of("A-z_0.9", k1, "x".repeat(64), k2), "A-z_0.9").keyIds())
                .containsExactly("A-z_0.9", "x".repeat(64));
    }

    @Test
    void generatedKeksAreFreshAes256() {
        assertThat(k1.getAlgorithm()).isEqualTo("AES");
        assertThat(k1.getEncoded()).hasSize(32);
        assertThat(k1.getEncoded()).isNotEqualTo(k2.getEncoded());
    }

    @Test
    void rotationKeepsOldKeysReadable() {
        EnvelopeKeyProvider before = twoKeys("k1");
        byte[] old = before.wrap(before.currentKeyId(), dataKey);
        EnvelopeKeyProvider after = before.withCurrentKey("k2");

        assertThat(after.currentKeyId()).isEqualTo("k2");
        assertThat(before.currentKeyId()).isEqualTo("k1");
        assertThat(after.keyIds()).containsExactly("k1", "k2");
        assertThat(after.unwrap("k1", old)).isEqualTo(dataKey);
        assertThat(after.unwrap("k2", after.wrap(after.currentKeyId(), dataKey))).isEqualTo(dataKey);
        assertThatThrownBy(() -> before.withCurrentKey("k3"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'k3'").hasMessageContaining("[k1, k2]");
    }

    @Test
    void toStringShowsIdsOnly() {
        String s = twoKeys("k2").toString();

        assertThat(s).contains("k1", "k2", "current=k2");
        assertThat(s).doesNotContain(b64(k1)).doesNotContain(b64(k2))
                .doesNotContain(HexFormat.of().formatHex(k1.getEncoded()).substring(0, 16));
    }

    // --- PKCS#12 ---

    private static Path keyStore(Path dir, Map<String, SecretKey> entries, char[] storePassword, char[] entryPassword)
            throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        for (Map.Entry<String, SecretKey> e : entries.entrySet()) {
            ks.setEntry(e.getKey(), new KeyStore.SecretKeyEntry(e.getValue()),
                    new KeyStore.PasswordProtection(entryPassword));
        }
        Path file = dir.resolve("keks-" + System.nanoTime() + ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, storePassword);
        }
        return file;
    }

    @Test
    void keyStoreRoundTrip(@TempDir Path dir) throws Exception {
        Path file = keyStore(dir, Map.of("kek-1", k1, "kek-2", k2), PASSWORD, PASSWORD);
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-2");

        assertThat(keys.keyIds()).containsExactly("kek-1", "kek-2");
        assertThat(keys.currentKeyId()).isEqualTo("kek-2");
        byte[] wrapped = keys.wrap("kek-2", dataKey);
        assertThat(keys.unwrap("kek-2", wrapped)).isEqualTo(dataKey);
        // the same KEKs given another way interoperate
        EnvelopeKeyProvider same = EnvelopeKeyProvider.of(Map.of("kek-1", k1, "kek-2", k2), "kek-1");
        assertThat(same.unwrap("kek-2", wrapped)).isEqualTo(dataKey);
        assertThat(keys.unwrap("kek-1", same.wrap("kek-1", dataKey))).isEqualTo(dataKey);
    }

    @Test
    void keyStoreRejectsSecretKeysThatAreNotAes(@TempDir Path dir) throws Exception {
        KeyGenerator hmac = KeyGenerator.getInstance("HmacSHA256");
        Path file = keyStore(dir, Map.of("kek-1", k1, "mac", hmac.generateKey()), PASSWORD, PASSWORD);

        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-1"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'mac'")
                .hasMessageContaining(file.toString());
    }

    @Test
    void keyStoreWithAShortKeyNamesIt(@TempDir Path dir) throws Exception {
        KeyGenerator aes = KeyGenerator.getInstance("AES");
        aes.init(128);
        Path file = keyStore(dir, Map.of("kek-1", k1, "kek-128", aes.generateKey()), PASSWORD, PASSWORD);

        Throwable t = catchThrowable(() -> EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-1"));
        assertThat(t).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'kek-128'").hasMessageContaining("128-bit");
        assertNoKeyMaterial(t, k1);
    }

    @Test
    void keyStoreWrongPassword(@TempDir Path dir) throws Exception {
        Path file = keyStore(dir, Map.of("kek-1", k1), PASSWORD, PASSWORD);

        Throwable t = catchThrowable(() -> EnvelopeKeyProvider.fromKeyStore(file, "nope".toCharArray(), "kek-1"));
        assertThat(t).isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("wrong password")
                .hasMessageContaining(file.toString())
                .hasMessageNotContaining("store-secret");
    }

    @Test
    void keyStoreEntryWithAnotherPassword(@TempDir Path dir) throws Exception {
        Path file = keyStore(dir, Map.of("kek-1", k1), PASSWORD, "entry-secret".toCharArray());

        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-1"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'kek-1'")
                .hasMessageContaining("store password");
    }

    @Test
    void keyStoreMissingAlias(@TempDir Path dir) throws Exception {
        Path file = keyStore(dir, Map.of("kek-1", k1), PASSWORD, PASSWORD);

        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-9"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'kek-9'")
                .hasMessageContaining("[kek-1]")
                .hasMessageContaining(file.toString());
    }

    @Test
    void keyStoreAliasesAreLowerCase(@TempDir Path dir) throws Exception {
        Path file = keyStore(dir, Map.of("KEK-Upper", k1), PASSWORD, PASSWORD);

        assertThat(EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "kek-upper").keyIds()).containsExactly("kek-upper");
        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(file, PASSWORD, "KEK-Upper"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'kek-upper'").hasMessageContaining("lower-case");
    }

    @Test
    void keyStoreMissingFileAndGarbage(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("nope.p12");
        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(missing, PASSWORD, "k"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("does not exist");

        Path garbage = Files.write(dir.resolve("garbage.p12"), "not a keystore".getBytes());
        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(garbage, PASSWORD, "k"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining(garbage.toString());

        Path empty = keyStore(dir, Map.of(), PASSWORD, PASSWORD);
        assertThatThrownBy(() -> EnvelopeKeyProvider.fromKeyStore(empty, PASSWORD, "k"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("no secret-key entries");
    }

    // --- encoded spec ---

    @Test
    void encodedRoundTrip() {
        EnvelopeKeyProvider keys = EnvelopeKeyProvider.fromEncoded(
                " k1:" + b64(k1) + " , k2:" + Base64.getUrlEncoder().withoutPadding().encodeToString(k2.getEncoded()),
                "k2");

        assertThat(keys.keyIds()).containsExactly("k1", "k2");
        assertThat(keys.currentKeyId()).isEqualTo("k2");
        EnvelopeKeyProvider same = twoKeys("k1");
        assertThat(same.unwrap("k1", keys.wrap("k1", dataKey))).isEqualTo(dataKey);
        assertThat(same.unwrap("k2", keys.wrap("k2", dataKey))).isEqualTo(dataKey);
        assertThat(EnvelopeKeyProvider.fromEncoded("only:" + b64(k1), "only").keyIds()).containsExactly("only");
    }

    @Test
    void encodedErrorsNamePositionOrIdButNeverKeys() {
        String good = "k1:" + b64(k1);
        String k2b64 = b64(k2);
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("", "empty");
        cases.put("   ", "empty");
        cases.put(good + ",", "entry 2 of 2 is empty");
        cases.put(good + "," + k2b64, "entry 2 of 2 has no ':'");
        cases.put(good + "," + k2b64 + ":k2", "entry 2 of 2 has an invalid KEK id");
        cases.put(good + ",:" + k2b64, "entry 2 of 2 has an invalid KEK id");
        cases.put(good + ",k1:" + k2b64, "KEK id 'k1' appears more than once");
        cases.put(good + ",k2:" + k2b64.substring(0, 20) + "!!", "(KEK 'k2') is not valid base64");
        cases.put(good + ",k2:" + Base64.getEncoder().encodeToString(new byte[16]), "(KEK 'k2') decodes to 16 bytes");
        cases.put(good + ",k2:", "(KEK 'k2') decodes to 0 bytes");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Throwable t = catchThrowable(() -> EnvelopeKeyProvider.fromEncoded(c.getKey(), "k1"));
            assertThat(t).as(c.getValue()).isInstanceOf(HybrisConfigurationException.class)
                    .hasMessageContaining(c.getValue());
            assertNoKeyMaterial(t, k1, k2);
            assertThat(t.getMessage()).doesNotContain(k2b64.substring(0, 8)).doesNotContain("!!");
        }
        assertThatThrownBy(() -> EnvelopeKeyProvider.fromEncoded(good, "k7"))
                .isInstanceOf(HybrisConfigurationException.class)
                .hasMessageContaining("'k7'").hasMessageContaining("[k1]");
    }
}
