/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamesTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "photos", "0", "my-bucket-1", "a-", "abcdefghijklmnopqrstuvwxyz0123456789-abcdefghijklmnopqrstuvwxyz"})
    void acceptsValidContainers(String container) {
        assertThat(container.length()).isLessThanOrEqualTo(63);
        assertThatCode(() -> Names.checkContainer(container)).doesNotThrowAnyException();
    }

    @Test
    void rejectsNullAndEmptyContainers() {
        assertThatThrownBy(() -> Names.checkContainer(null)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("container must not be null");
        assertThatThrownBy(() -> Names.checkContainer("")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("container must not be empty");
    }

    @Test
    void rejectsTooLongContainersNamingTheLength() {
        assertThatThrownBy(() -> Names.checkContainer("a".repeat(64))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is 64 characters long; the maximum is 63");
    }

    @Test
    void rejectsBadContainerCharactersNamingCharacterAndIndex() {
        assertThatThrownBy(() -> Names.checkContainer("Photos")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("container 'Photos' has character U+0050 'P' at index 0");
        assertThatThrownBy(() -> Names.checkContainer("my_bucket")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("character U+005F '_' at index 2");
        assertThatThrownBy(() -> Names.checkContainer("-abc")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("character U+002D '-' at index 0");
        assertThatThrownBy(() -> Names.checkContainer("a/b")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("'/' at index 1");
        assertThatThrownBy(() -> Names.checkContainer("ab\tc")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("character U+0009 at index 2");
    }

    @Test
    void acceptsKeysUpToTheByteLimit() {
        assertThatCode(() -> Names.checkKey("a".repeat(256))).doesNotThrowAnyException();
        assertThatCode(() -> Names.checkKey("é".repeat(128))).doesNotThrowAnyException();
        assertThatCode(() -> Names.checkKey("photos/2024/cat #1%.jpg")).doesNotThrowAnyException();
        assertThatCode(() -> Names.checkKey("\uD83D\uDE00")).doesNotThrowAnyException();
    }

    @Test
    void rejectsNullAndEmptyKeys() {
        assertThatThrownBy(() -> Names.checkKey(null)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("key must not be null");
        assertThatThrownBy(() -> Names.checkKey("")).isInstanceOf(InvalidRequestException.class)
                .hasMessage("key must not be empty");
    }

    @Test
    void rejectsKeysOverTheByteLimitNamingTheirSize() {
        assertThatThrownBy(() -> Names.checkKey("a".repeat(257))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is 257 bytes in UTF-8; the maximum is 256");
        assertThatThrownBy(() -> Names.checkKey("é".repeat(129))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("is 258 bytes in UTF-8");
    }

    @Test
    void rejectsControlCharactersNamingCharacterAndIndex() {
        assertThatThrownBy(() -> Names.checkKey("ab\u0007c")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("control character U+0007 at index 2");
        assertThatThrownBy(() -> Names.checkKey("\u0000")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("control character U+0000 at index 0");
        assertThatThrownBy(() -> Names.checkKey("x\u007f")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("U+007F at index 1");
        assertThatThrownBy(() -> Names.checkKey("line\nbreak")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("U+000A at index 4");
    }

    @Test
    void rejectsUnpairedSurrogatesNamingCharacterAndIndex() {
        assertThatThrownBy(() -> Names.checkKey("a\uD800b")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("unpaired surrogate character U+D800 at index 1");
        assertThatThrownBy(() -> Names.checkKey("ab\uDC00")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("unpaired surrogate character U+DC00 at index 2");
        assertThatThrownBy(() -> Names.checkKey("\uD83D\uDE00x\uD83D")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("U+D83D at index 3");
        assertThatThrownBy(() -> Names.checkKey("\uDE00\uD83D")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("U+DE00 at index 0");
    }

    @Test
    void longKeysAreAbbreviatedInMessages() {
        assertThatThrownBy(() -> Names.checkKey("k".repeat(300))).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("key '" + "k".repeat(37) + "...' is 300 bytes");
    }

    @Test
    void cloudIds() {
        assertThat(Names.isValidCloudId("aws")).isTrue();
        assertThat(Names.isValidCloudId("c1")).isTrue();
        assertThat(Names.isValidCloudId("a".repeat(16))).isTrue();
        assertThat(Names.isValidCloudId("a".repeat(17))).isFalse();
        assertThat(Names.isValidCloudId("AWS")).isFalse();
        assertThat(Names.isValidCloudId("-aws")).isFalse();
        assertThat(Names.isValidCloudId("a_b")).isFalse();
        assertThat(Names.isValidCloudId("")).isFalse();
        assertThat(Names.isValidCloudId(null)).isFalse();
    }

    @Test
    void clientIds() {
        assertThat(Names.isValidClientId("abcdefgh")).isTrue();
        assertThat(Names.isValidClientId("client-1")).isTrue();
        assertThat(Names.isValidClientId("a".repeat(32))).isTrue();
        assertThat(Names.isValidClientId("a".repeat(33))).isFalse();
        assertThat(Names.isValidClientId("Client")).isFalse();
        assertThat(Names.isValidClientId("a_b")).isFalse();
        assertThat(Names.isValidClientId("-a")).isFalse();
        assertThat(Names.isValidClientId("")).isFalse();
        assertThat(Names.isValidClientId(null)).isFalse();
    }
}
