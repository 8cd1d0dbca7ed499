/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ObjectKeyTest {
    private static final String PREFIX = "hybris/";

    @Test
    void rendersContainerEncodedKeyAndTimestamp() {
        ObjectKey key = new ObjectKey("photos", "cat.jpg", new Timestamp(3, "abcdefgh"));

        assertThat(key.render(PREFIX)).isEqualTo("hybris/photos/cat.jpg#3_abcdefgh");
        assertThat(key.render("")).isEqualTo("photos/cat.jpg#3_abcdefgh");
        assertThat(ObjectKey.keyPrefix(PREFIX, "photos", "cat.jpg")).isEqualTo("hybris/photos/cat.jpg#");
    }

    @Test
    void keysWithSlashesHashesAndUnicodeRenderAsOneSegment() {
        ObjectKey key = new ObjectKey("docs", "a/b#c.d", new Timestamp(12, "client-1"));

        assertThat(key.render(PREFIX)).isEqualTo("hybris/docs/a%2Fb%23c.d#12_client-1");
    }

    @Test
    void renderAndParseRoundTrip() {
        for (String key : List.of("cat.jpg", "a/b/c", "#", "%41", ".", "..", ".hidden", "ключ", "😀 emoji",
                "x".repeat(256), "é".repeat(128), "1_2#3")) {
            for (Timestamp ts : List.of(new Timestamp(0, "a"), new Timestamp(1, "abcdefgh"),
                    new Timestamp(Long.MAX_VALUE, "client-1"), new Timestamp(42, "a".repeat(32)))) {
                ObjectKey original = new ObjectKey("my-container", key, ts);
                String rendered = original.render(PREFIX);

                assertThat(ObjectKey.parse(PREFIX, rendered)).as(rendered).contains(original);
                assertThat(rendered).startsWith(ObjectKey.keyPrefix(PREFIX, "my-container", key));
            }
        }
    }

    @Test
    void writeIdsRenderInBase36AfterTheClientIdAndParseBack() {
        ObjectKey key = new ObjectKey("photos", "cat.jpg", new Timestamp(3, "abcdefgh", 36 * 36 + 35));

        assertThat(key.render("hybris/")).isEqualTo("hybris/photos/cat.jpg#3_abcdefgh.10z");
        assertThat(ObjectKey.parse("hybris/", key.render("hybris/"))).hasValue(key);
        assertThat(ObjectKey.parse("hybris/", "hybris/photos/cat.jpg#3_abcdefgh.")).isEmpty();
        assertThat(ObjectKey.parse("hybris/", "hybris/photos/cat.jpg#3_abcdefgh.-1")).isEmpty();
        assertThat(ObjectKey.parse("hybris/", "hybris/photos/cat.jpg#3_abc.def.1")).isEmpty();
    }

    @Test
    void parsesWithAnEmptyOrNestedPrefix() {
        ObjectKey key = new ObjectKey("c", "k", new Timestamp(5, "abc"));

        assertThat(ObjectKey.parse("", key.render(""))).contains(key);
        assertThat(ObjectKey.parse("a/b/c/", key.render("a/b/c/"))).contains(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "other/photos/cat.jpg#1_abc",      // outside the prefix
            "hybris/readme.txt",               // no container, no version
            "hybris/photos/cat.jpg",           // no version
            "hybris/photos/#1_abc",            // empty key
            "hybris//cat.jpg#1_abc",           // empty container
            "hybris/photos/cat.jpg#1",         // no client id
            "hybris/photos/cat.jpg#_abc",      // no sequence number
            "hybris/photos/cat.jpg#x_abc",     // sequence number not a number
            "hybris/photos/cat.jpg#-1_abc",    // negative sequence number
            "hybris/photos/cat.jpg#99999999999999999999_abc", // overflow
            "hybris/photos/cat.jpg#1_ABC",     // invalid client id
            "hybris/photos/cat.jpg#1_",        // empty client id
            "hybris/photos/cat.jpg#1_a_b",     // '_' in client id
            "hybris/photos/a/b#1_abc",         // '/' in the encoded key
            "hybris/photos/a%zz#1_abc",        // bad escape
            "hybris/photos/a%2#1_abc",         // truncated escape
            "hybris/photos/a b#1_abc",         // character the encoding never writes
            "hybris/photos/cat.jpg#1_abc/x"    // trailing path
    })
    void rejectsForeignNames(String name) {
        assertThat(ObjectKey.parse(PREFIX, name)).isEmpty();
    }
}
