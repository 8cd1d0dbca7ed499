/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.metadata.InMemoryMetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Misuse of the public API is refused with an {@link InvalidRequestException} (or the documented exception) that
 * names what was wrong, before anything is written, and leaves the client usable: null or aborted uploads in
 * parts, bad part lengths, scrubs and migrations without options or between unknown clouds, cost reports for a
 * null or negative period, and streams that hand back more bytes than asked for.
 */
class MisuseRefusedTest {
    private final Hybris hybris = Hybris.open(HybrisConfig.builder().f(1).metadataStore(new InMemoryMetadataStore())
            .probeInterval(Duration.ZERO).deadline(Duration.ofSeconds(5))
            .cloud(new InMemoryCloudStore("a")).cloud(new InMemoryCloudStore("b")).cloud(new InMemoryCloudStore("c"))
            .build());
    private final PartUploads parts = PartUploads.of(hybris);

    @AfterEach
    void close() {
        hybris.close();
    }

    private static InputStream bytes(int n) {
        return new ByteArrayInputStream(new byte[n]);
    }

    @Test
    void partUploadsRefuseANullUploadOrPartNamingTheArgument() {
        PartUpload upload = parts.start("box", "big");
        UploadedPart p1 = parts.upload(upload, 1, bytes(3), 3);
        assertThatThrownBy(() -> parts.upload(null, 1, bytes(3), 3))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("upload must not be null");
        assertThatThrownBy(() -> parts.complete(null, List.of(p1), PutOptions.none()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("upload must not be null");
        assertThatThrownBy(() -> parts.abort(null))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("upload must not be null");
        assertThatThrownBy(() -> parts.complete(upload, Arrays.asList(p1, null), PutOptions.none()))
                .isExactlyInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("parts must not contain null (element 1)");
        assertThatThrownBy(() -> new PartUpload("box", "big", null))
                .isExactlyInstanceOf(InvalidRequestException.class);
        assertThat(hybris.describe("box", "big")).isEmpty();
        assertThat(parts.complete(upload, List.of(p1), PutOptions.none()).size()).isEqualTo(3);
    }

    @Test
    void aPartWithANegativeLengthIsRefused() {
        PartUpload upload = parts.start("box", "big");
        assertThatThrownBy(() -> parts.upload(upload, 1, bytes(3), -7))
                .isExactlyInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("length -7 of part 1 is invalid");
        assertThat(hybris.describe("box", "big")).isEmpty();
    }

    @Test
    void anAbortedUploadTakesNoPartAndNoCompletionAndCommitsNothing() {
        PartUpload upload = parts.start("box", "big");
        UploadedPart p1 = parts.upload(upload, 1, bytes(3), 3);
        parts.abort(upload);
        assertThatThrownBy(() -> parts.complete(upload, List.of(p1), PutOptions.none()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("was aborted");
        assertThatThrownBy(() -> parts.upload(upload, 2, bytes(3), 3))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("was aborted");
        assertThat(hybris.describe("box", "big")).isEmpty();
        assertThat(hybris.get("box", "big")).isEmpty();
    }

    @Test
    void scrubAndMigrateRefuseBadArgumentsAndLeaveTheClientUsable() {
        hybris.put("box", "k", new byte[] {1});
        assertThatThrownBy(() -> hybris.scrub(null))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("options must not be null");
        assertThatThrownBy(() -> hybris.migrate("a", "b", null))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("options must not be null");
        assertThatThrownBy(() -> hybris.migrate(null, "b", ScrubOptions.listing()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("cloud 'null'");
        assertThatThrownBy(() -> hybris.migrate("a", null, ScrubOptions.listing()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("cloud 'null'");
        assertThatThrownBy(() -> hybris.migrate("zz", "b", ScrubOptions.listing()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("'zz' is not configured");
        assertThatThrownBy(() -> hybris.migrate("a", "a", ScrubOptions.listing()))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("the same cloud 'a'");
        hybris.migrate("a", "b", ScrubOptions.listing()); // no refused call left a cloud marked as leaving
        assertThat(hybris.describe("box", "k").orElseThrow().clouds()).doesNotContain("a");
    }

    @Test
    void aCostReportRefusesANullOrNegativePeriod() {
        assertThatThrownBy(() -> hybris.costReport(null))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("storagePeriod");
        assertThatThrownBy(() -> hybris.costReport(Duration.ofDays(-1)))
                .isExactlyInstanceOf(InvalidRequestException.class).hasMessageContaining("storagePeriod");
    }

    @Test
    void aStreamThatReturnsMoreBytesThanAskedForIsRefusedAndCommitsNothing() {
        hybris.put("box", "k", new byte[] {1});
        InputStream lying = new InputStream() {
            @Override
            public int read() {
                return 1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return len + 5; // claims bytes it never wrote
            }
        };
        assertThatThrownBy(() -> hybris.put("box", "k", lying, 50))
                .isExactlyInstanceOf(ValueSourceException.class).hasMessageContaining("InputStream contract");
        assertThat(hybris.get("box", "k")).hasValue(new byte[] {1});
    }

    @Test
    void aStreamThatThrowsAnUncheckedExceptionIsASourceFailureAndCommitsNothing() {
        hybris.put("box", "k", new byte[] {1});
        IllegalStateException broken = new IllegalStateException("decoder closed");
        InputStream failing = new InputStream() {
            private int sent;

            @Override
            public int read() {
                if (sent++ == 10) {
                    throw broken;
                }
                return 7;
            }
        };
        assertThatThrownBy(() -> hybris.put("box", "k", failing, 50))
                .isExactlyInstanceOf(ValueSourceException.class).hasCause(broken)
                .hasMessageContaining("nothing was committed");
        assertThat(hybris.get("box", "k")).hasValue(new byte[] {1});
    }

    /** InputStream's contract: bad indices are the caller's mistake, not a failed read of the value. */
    @Test
    void aValueStreamReadWithBadIndicesThrowsIndexOutOfBoundsAndStaysUsable() throws Exception {
        hybris.put("box", "k", new byte[] {1, 2, 3});
        try (ValueStream in = hybris.getStream("box", "k").orElseThrow()) {
            byte[] b = new byte[2];
            assertThatThrownBy(() -> in.read(b, 1, 2)).isExactlyInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> in.read(b, -1, 1)).isExactlyInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> in.read(null, 0, 1)).isExactlyInstanceOf(NullPointerException.class);
            assertThat(in.readAllBytes()).containsExactly(1, 2, 3);
        }
    }
}
