/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.spi;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The name under which one version of a key is stored on the clouds:
 * {@code <prefix><container>/<encoded key>#<sn>_<clientId>.<writeId in base 36>} (the paper's {@code k|ts}; the
 * write id is absent on versions written before write ids existed). The encoded key ({@link KeyEncoding}) never
 * contains {@code /} or {@code #} and a client id never contains {@code .}, so a name parses back. Tools that
 * inspect or repair what Hybris stored on a cloud (and tests that forge a crashed client's leftovers) use this
 * format instead of spelling it out.
 *
 * @param container the container
 * @param key       the user key
 * @param sn        the version's sequence number ({@code >= 0})
 * @param clientId  the writing client's id ({@code [a-z0-9][a-z0-9-]{0,31}}), or {@code -} and that id for a
 *                  version a scrub or migration rewrote ({@link #REWRITE_MARK}: ordered before any write of a
 *                  client with the same sequence number)
 * @param writeId   the writing call's id within its client ({@code >= 0}), or {@link #NO_WRITE_ID}
 *
 * <p>A large value is stored in chunks ({@code docs/streaming.md}): the version's own name then holds its chunk
 * manifest, and chunk {@code i} is stored as {@code <version name>#c<i>} ({@link #renderChunk}); every chunk of a
 * version shares the prefix {@link #chunkPrefix}.
 */
public record VersionName(String container, String key, long sn, String clientId, long writeId) {
    /** The write id of a version name that has none. */
    public static final long NO_WRITE_ID = -1;

    /**
     * Starts the writer of a version that a scrub or migration rewrote with the bytes of the version before it
     * ({@code docs/scrub.md}): no client id starts with it, and it sorts before every character a client id starts
     * with, so a user write that read the version the rewrite replaced (same sequence number) orders after it.
     */
    public static final String REWRITE_MARK = "-";

    private static final Pattern CLIENT_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    private static final String CHUNK_MARK = "#c";

    /**
     * One chunk of a chunked version, as named on the clouds.
     *
     * @param version the version the chunk belongs to
     * @param index   the chunk's name index ({@code >= 0}): its position in the value for a value stored in one
     *                call, or a sparse index for a value uploaded in parts (see {@code docs/streaming.md})
     */
    public record Chunk(VersionName version, long index) {
        public Chunk {
            Objects.requireNonNull(version, "version");
            if (index < 0) {
                throw new IllegalArgumentException("chunk index must be >= 0: " + index);
            }
        }
    }

    public VersionName {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(clientId, "clientId");
        if (sn < 0) {
            throw new IllegalArgumentException("sn must be >= 0: " + sn);
        }
        if (writeId < NO_WRITE_ID) {
            throw new IllegalArgumentException("writeId must be >= 0, or NO_WRITE_ID: " + writeId);
        }
    }

    /** Whether {@code id} is a valid client id: 1 to 32 of {@code a-z 0-9 -}, not starting with {@code -}. */
    public static boolean isValidClientId(String id) {
        return id != null && CLIENT_ID.matcher(id).matches();
    }

    /** Whether {@code id} is a valid writer in a version name: a client id, or {@link #REWRITE_MARK} and one. */
    public static boolean isValidWriter(String id) {
        return isValidClientId(id) || id != null && id.startsWith(REWRITE_MARK)
                && isValidClientId(id.substring(REWRITE_MARK.length()));
    }

    /** The version part of the name: {@code sn_clientId}, then {@code .writeId} in base 36 if there is one. */
    public String version() {
        return sn + "_" + clientId + (writeId != NO_WRITE_ID ? "." + Long.toString(writeId, 36) : "");
    }

    /** The full object name under {@code prefix}. */
    public String render(String prefix) {
        return keyPrefix(prefix, container, key) + version();
    }

    /** The name of chunk {@code index} of this version under {@code prefix}. */
    public String renderChunk(String prefix, long index) {
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must be >= 0: " + index);
        }
        return chunkPrefix(prefix) + index;
    }

    /** The prefix shared by the names of every chunk of this version (and of nothing else), for listing. */
    public String chunkPrefix(String prefix) {
        return render(prefix) + CHUNK_MARK;
    }

    /** Parses a chunk name written by {@link #renderChunk}; empty if it is not exactly one (never throws). */
    public static Optional<Chunk> parseChunk(String prefix, String name) {
        int mark = name.lastIndexOf(CHUNK_MARK);
        if (mark < 0) {
            return Optional.empty();
        }
        String digits = name.substring(mark + CHUNK_MARK.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        long index = Long.parseLong(digits); // at most 18 digits: never overflows
        return parse(prefix, name.substring(0, mark))
                .filter(v -> v.renderChunk(prefix, index).equals(name))
                .map(v -> new Chunk(v, index));
    }

    /** The prefix shared by the names of every version of one key, for listing. */
    public static String keyPrefix(String prefix, String container, String key) {
        return prefix + container + "/" + KeyEncoding.encode(key) + "#";
    }

    /** Parses a name written by {@link #render}; empty if it is not exactly one (never throws). */
    public static Optional<VersionName> parse(String prefix, String name) {
        if (!name.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = name.substring(prefix.length());
        int slash = rest.indexOf('/');
        int hash = rest.lastIndexOf('#');
        if (slash <= 0 || hash <= slash + 1) {
            return Optional.empty();
        }
        String container = rest.substring(0, slash);
        String encodedKey = rest.substring(slash + 1, hash);
        String version = rest.substring(hash + 1);
        int underscore = version.indexOf('_');
        if (underscore <= 0 || encodedKey.indexOf('/') >= 0) {
            return Optional.empty();
        }
        try {
            long sn = Long.parseLong(version.substring(0, underscore));
            String writer = version.substring(underscore + 1);
            int dot = writer.indexOf('.');
            String clientId = dot < 0 ? writer : writer.substring(0, dot);
            long writeId = dot < 0 ? NO_WRITE_ID : Long.parseLong(writer.substring(dot + 1), 36);
            if (!isValidWriter(clientId) || sn < 0 || (dot >= 0 && writeId < 0)) {
                return Optional.empty();
            }
            VersionName parsed = new VersionName(container, KeyEncoding.decode(encodedKey), sn, clientId, writeId);
            // only names Hybris itself writes: the sweep must never judge anything else
            return parsed.render(prefix).equals(name) ? Optional.of(parsed) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
