package io.hybris.internal;

import io.hybris.spi.KeyEncoding;

import java.util.Objects;
import java.util.Optional;

/**
 * The name of one stored version on the clouds: {@code <prefix><container>/<encoded key>#<sn>_<clientId>.<writeId>}
 * (paper: {@code k|ts}; the write id in base 36, absent on versions written without one, see {@link Timestamp}).
 * The encoded key never contains {@code /} or {@code #} and a client id never contains {@code .}, so the name
 * parses back.
 *
 * @param container the container
 * @param key       the user key
 * @param timestamp the version
 */
public record ObjectKey(String container, String key, Timestamp timestamp) {
    public ObjectKey {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(timestamp, "timestamp");
    }

    /** The full object name under {@code prefix}. */
    public String render(String prefix) {
        return prefix + container + "/" + KeyEncoding.encode(key) + "#" + timestamp;
    }

    /** The prefix shared by every version of one key, for listing. */
    public static String keyPrefix(String prefix, String container, String key) {
        return prefix + container + "/" + KeyEncoding.encode(key) + "#";
    }

    /** Parses an object name written by {@link #render}; empty if it is not one (never throws). */
    public static Optional<ObjectKey> parse(String prefix, String name) {
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
            long writeId = dot < 0 ? Timestamp.NO_WRITE_ID : Long.parseLong(writer.substring(dot + 1), 36);
            if (!Names.isValidClientId(clientId) || sn < 0 || (dot >= 0 && writeId < 0)) {
                return Optional.empty();
            }
            ObjectKey parsed = new ObjectKey(container, KeyEncoding.decode(encodedKey),
                    new Timestamp(sn, clientId, writeId));
            // only names Hybris itself writes: the sweep must never judge anything else
            return parsed.render(prefix).equals(name) ? Optional.of(parsed) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
