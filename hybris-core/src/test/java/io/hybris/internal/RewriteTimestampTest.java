/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.internal;

import io.hybris.spi.VersionName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The versions a scrub or migration rewrites ({@link VersionName#REWRITE_MARK} and the rewriting client's id): ordered
 * after the version they replace and before every client's write with their sequence number, and named so that the
 * sweep, GC and the scrub parse them back (chunks too); no client may take such an id.
 */
class RewriteTimestampTest {
    private static final String P = "hybris/";

    @Test
    void aRewriteOrdersBetweenTheVersionItReplacesAndEveryWriteThatReadThatVersion() {
        Timestamp replaced = new Timestamp(4, "zzzzzzzz", 99);
        Timestamp rewrite = replaced.next(VersionName.REWRITE_MARK + "zzzzzzzz", 5);
        assertThat(rewrite.isAfter(replaced)).isTrue();
        for (String client : List.of("0", "00000000", "a", "aaaaaaaa", "zzzzzzzz", "0-", "9zzzz")) {
            Timestamp userWrite = replaced.next(client, 0);
            assertThat(userWrite.isAfter(rewrite)).as(client).isTrue();
        }
    }

    @Test
    void rewrittenVersionsAndTheirChunksParseBack() {
        VersionName v = new VersionName("c", "big", 5, VersionName.REWRITE_MARK + "k2j4mq7a", 123456);
        assertThat(VersionName.parse(P, v.render(P))).contains(v);
        assertThat(VersionName.parseChunk(P, v.renderChunk(P, 3))).contains(new VersionName.Chunk(v, 3));
        ObjectKey ok = new ObjectKey("c", "big", new Timestamp(5, "-k2j4mq7a", 123456));
        assertThat(ObjectKey.parse(P, ok.render(P))).contains(ok);
    }

    @Test
    void noClientTakesARewritersIdAndOnlyOneMarkParses() {
        assertThat(Names.isValidClientId("-k2j4mq7a")).isFalse();
        assertThat(VersionName.isValidWriter("-k2j4mq7a")).isTrue();
        assertThat(VersionName.isValidWriter("--k2j4mq7a")).isFalse();
        assertThat(VersionName.isValidWriter("-")).isFalse();
        assertThat(VersionName.parse(P, P + "c/big#5_--ab.1")).isEmpty();
        assertThat(VersionName.parse(P, P + "c/big#5_-.1")).isEmpty();
    }

    @Test
    void aRewritersIdSurvivesTheMetadataCodec() {
        Metadata m = Metadata.tombstone(new Timestamp(5, "-k2j4mq7a", 7));
        assertThat(MetadataCodec.decode(MetadataCodec.encode(m)).timestamp()).isEqualTo(m.timestamp());
    }
}
