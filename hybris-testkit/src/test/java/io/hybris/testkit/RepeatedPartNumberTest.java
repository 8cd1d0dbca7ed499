/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.InvalidRequestException;
import io.hybris.PartUpload;
import io.hybris.PartUploads;
import io.hybris.PutOptions;
import io.hybris.UploadedPart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.List;

import static io.hybris.testkit.StreamingFixture.C;
import static io.hybris.testkit.StreamingFixture.CHUNK;
import static io.hybris.testkit.StreamingFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A completion lists each part once, in increasing part number (docs/streaming.md, "Uploads in parts"). Two uploads
 * of the same part number (a retry racing the first try) are two receipts whose chunks have distinct, ordered name
 * indices: listing both must be refused as a repeated part, not committed as a value holding that part twice.
 */
class RepeatedPartNumberTest {
    private final StreamingFixture fx = new StreamingFixture();

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void aCompletionNamingTwoUploadsOfOnePartNumberIsRefusedInEitherOrder() {
        Hybris h = fx.open();
        PartUploads parts = PartUploads.of(h);
        PartUpload upload = parts.start(C, "k");
        byte[] first = value(CHUNK + 10, 1);
        byte[] retry = value(CHUNK + 10, 2);
        UploadedPart a = parts.upload(upload, 1, new ByteArrayInputStream(first), first.length);
        UploadedPart b = parts.upload(upload, 1, new ByteArrayInputStream(retry), retry.length);

        for (List<UploadedPart> named : List.of(List.of(a, b), List.of(b, a))) {
            assertThatThrownBy(() -> parts.complete(upload, named, PutOptions.none()))
                    .isInstanceOf(InvalidRequestException.class).hasMessageContaining("increasing order");
            assertThat(h.get(C, "k")).as("nothing committed").isEmpty();
        }
        // the upload is still usable: completing with one of them commits exactly that part
        assertThat(parts.complete(upload, List.of(b), PutOptions.none()).size()).isEqualTo(retry.length);
        assertThat(fx.open(x -> x.clientId("r1")).get(C, "k")).hasValueSatisfying(v -> assertThat(v).isEqualTo(retry));
    }
}
