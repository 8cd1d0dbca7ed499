package io.hybris.internal;

import io.hybris.spi.KeyEncoding;

import java.util.Objects;
import java.util.Optional;

/**
 * The name of one stored version on the clouds: {@code <prefix><container>/<encoded key>#<sn>_<clientId>}
 * (paper: {@code k|ts}). The encoded key never contains {@code /} or {@code #}, so the name parses back.
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
        return prefix + container + "/" + KeyEncoding.encode(key) + "#" + timestamp.sn() + "_" + timestamp.clientId();
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
            String clientId = version.substring(underscore + 1);
            if (!Names.isValidClientId(clientId) || sn < 0) {
                return Optional.empty();
            }
            ObjectKey parsed = new ObjectKey(container, KeyEncoding.decode(encodedKey), new Timestamp(sn, clientId));
            // only names Hybris itself writes: the sweep must never judge anything else
            return parsed.render(prefix).equals(name) ? Optional.of(parsed) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
