/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Per-call options of a PUT: a precondition on the key's current version, checked before anything is uploaded
 * and again atomically by the conditional update that commits the write (so a sync client's commit succeeds only
 * if it is based on the current version). A write whose precondition fails throws
 * {@link PreconditionFailedException} carrying the version that is current instead, and leaves nothing behind.
 * Immutable.
 *
 * <pre>{@code
 * VersionInfo base = hybris.put("notes", "todo.txt", v1, PutOptions.ifAbsent());
 * hybris.put("notes", "todo.txt", v2, PutOptions.ifMatch(base.version()));   // fails if someone wrote since
 * hybris.put("notes", "todo.txt", v3, PutOptions.none().withMetadata(Map.of("content-type", "text/plain")));
 * }</pre>
 *
 * <p><b>Application metadata</b> ({@link #withMetadata}): small per-version name/value pairs (a content type, an
 * mtime, a sync app's parent pointer) kept with the version's entry in the metadata store — not on the clouds — and
 * returned with the version ({@link VersionInfo#metadata()}: by {@code describe}, by a stream's {@code version()}).
 * Names are 1-64 characters of {@code [a-z0-9._-]} starting with a letter or digit; values are any text without
 * control characters; all pairs together at most {@value #MAX_METADATA_BYTES} bytes of UTF-8 (as S3's user
 * metadata).
 */
public final class PutOptions {
    /** The most bytes of application metadata (names and values, UTF-8) one version may carry. */
    public static final int MAX_METADATA_BYTES = 2048;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final PutOptions NONE = new PutOptions(null, false, Map.of(), null);
    private static final PutOptions IF_ABSENT = new PutOptions(null, true, Map.of(), null);

    private final String ifMatch;
    private final boolean ifAbsent;
    private final Map<String, String> metadata;
    private final Supplier<Map<String, String>> metadataAfterRead;

    private PutOptions(String ifMatch, boolean ifAbsent, Map<String, String> metadata,
                       Supplier<Map<String, String>> metadataAfterRead) {
        this.ifMatch = ifMatch;
        this.ifAbsent = ifAbsent;
        this.metadata = metadata;
        this.metadataAfterRead = metadataAfterRead;
    }

    /** No precondition: the write is ordered after whatever is current (the default). */
    public static PutOptions none() {
        return NONE;
    }

    /** Write only if the key has no value (never written, or deleted). */
    public static PutOptions ifAbsent() {
        return IF_ABSENT;
    }

    /**
     * Write only if the key's current version is {@code version} ({@link VersionInfo#version()}).
     *
     * @throws InvalidRequestException if {@code version} is null or empty
     */
    public static PutOptions ifMatch(String version) {
        if (version == null || version.isEmpty()) {
            throw new InvalidRequestException("ifMatch needs a version (VersionInfo.version()), got "
                    + (version == null ? "null" : "an empty string") + "; use ifAbsent() for a key with no value");
        }
        return new PutOptions(version, false, Map.of(), null);
    }

    /**
     * These options with application metadata {@code metadata} for the version written (replacing any set before).
     *
     * @throws InvalidRequestException naming the pair, if a name or value is invalid or all together exceed
     *                                 {@value #MAX_METADATA_BYTES} bytes
     */
    public PutOptions withMetadata(Map<String, String> metadata) {
        return new PutOptions(ifMatch, ifAbsent, checked(metadata), metadataAfterRead);
    }

    /**
     * These options with application metadata that is known only once the value has been read in full — a digest
     * the caller computes as its stream is read, say (the S3 gateway's ETag). {@code metadata} is called once,
     * after the last byte was read and before the commit; its pairs are added to those of {@link #withMetadata}
     * (replacing a pair of the same name) and must satisfy the same rules, else the put fails with
     * {@link InvalidRequestException} and commits nothing.
     */
    public PutOptions withMetadataAfterRead(Supplier<Map<String, String>> metadata) {
        if (metadata == null) {
            throw new InvalidRequestException("the metadata supplier must not be null");
        }
        return new PutOptions(ifMatch, ifAbsent, this.metadata, metadata);
    }

    /**
     * The application metadata to commit: {@link #metadata()} and, if set, the pairs of
     * {@link #withMetadataAfterRead}'s supplier, which this calls — so call it only once the value has been read.
     *
     * @throws InvalidRequestException if the supplied pairs break the rules of {@link #withMetadata}
     */
    public Map<String, String> metadataAfterRead() {
        if (metadataAfterRead == null) {
            return metadata;
        }
        Map<String, String> merged = new TreeMap<>(metadata);
        Map<String, String> late = metadataAfterRead.get();
        if (late == null) {
            throw new InvalidRequestException("the metadata supplier returned null; return Map.of() for none");
        }
        merged.putAll(late);
        return checked(merged);
    }

    private static Map<String, String> checked(Map<String, String> metadata) {
        if (metadata == null) {
            throw new InvalidRequestException("metadata must not be null; pass Map.of() for none");
        }
        int bytes = 0;
        Map<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (name == null || !NAME.matcher(name).matches()) {
                throw new InvalidRequestException("metadata name " + (name == null ? "null" : "'" + name + "'")
                        + " is invalid: use 1-64 characters of a-z, 0-9, '.', '_', '-', starting with a letter or"
                        + " digit");
            }
            if (value == null || value.chars().anyMatch(Character::isISOControl)) {
                throw new InvalidRequestException("metadata value of '" + name + "' must be text without control"
                        + " characters" + (value == null ? ", not null" : ""));
            }
            bytes += name.length() + value.getBytes(StandardCharsets.UTF_8).length;
            sorted.put(name, value);
        }
        if (bytes > MAX_METADATA_BYTES) {
            throw new InvalidRequestException("metadata of " + metadata.size() + " pairs takes " + bytes + " bytes,"
                    + " more than " + MAX_METADATA_BYTES + "; keep large data in the value");
        }
        return java.util.Collections.unmodifiableMap(sorted);
    }

    /** The application metadata of the version written (empty: none). */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** The version the write requires, if any. */
    public Optional<String> ifMatchVersion() {
        return Optional.ofNullable(ifMatch);
    }

    /** Whether the write requires the key to have no value. */
    public boolean isIfAbsent() {
        return ifAbsent;
    }

    /** Whether the write has a precondition. */
    public boolean isConditional() {
        return ifMatch != null || ifAbsent;
    }

    @Override
    public String toString() {
        return (ifMatch != null ? "ifMatch(" + ifMatch + ")" : ifAbsent ? "ifAbsent()" : "none()")
                + (metadata.isEmpty() ? "" : ".withMetadata(" + metadata + ")")
                + (metadataAfterRead == null ? "" : ".withMetadataAfterRead(...)");
    }
}
