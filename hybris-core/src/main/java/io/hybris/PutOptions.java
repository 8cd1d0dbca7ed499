package io.hybris;

import java.util.Optional;

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
 * }</pre>
 */
public final class PutOptions {
    private static final PutOptions NONE = new PutOptions(null, false);
    private static final PutOptions IF_ABSENT = new PutOptions(null, true);

    private final String ifMatch;
    private final boolean ifAbsent;

    private PutOptions(String ifMatch, boolean ifAbsent) {
        this.ifMatch = ifMatch;
        this.ifAbsent = ifAbsent;
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
        return new PutOptions(version, false);
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
        return ifMatch != null ? "ifMatch(" + ifMatch + ")" : ifAbsent ? "ifAbsent()" : "none()";
    }
}
