/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudObject;
import io.hybris.spi.CloudStore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A cloud that has not seen the latest writes: while active, a read of a Hybris object key
 * {@code <...>#<sn>_<clientId>} returns the bytes of the newest <em>older</em> version of the same key that
 * the delegate still holds (versions ordered by {@code sn}, then client id, as Hybris timestamps), or nothing
 * if there is none. Keys that are not Hybris version names are forwarded unchanged, as are writes, listings
 * and deletes.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * StaleCloudStore stale = StaleCloudStore.of(new InMemoryCloudStore("c1"));
 * stale.put("hybris/c/k#1_abc", v1);
 * stale.put("hybris/c/k#2_abc", v2);
 * stale.get("hybris/c/k#2_abc", 1024); // v1
 * }</pre>
 */
public final class StaleCloudStore extends FaultInjectingCloudStore {

    private StaleCloudStore(CloudStore delegate) {
        super(delegate);
    }

    /** A stale view of {@code delegate}, active at once. */
    public static StaleCloudStore of(CloudStore delegate) {
        return new StaleCloudStore(delegate);
    }

    @Override
    public Optional<byte[]> get(String objectKey, long maxBytes) {
        if (!isActive()) {
            return delegate().get(objectKey, maxBytes);
        }
        Optional<Version> wanted = Version.parse(objectKey);
        if (wanted.isEmpty()) {
            return delegate().get(objectKey, maxBytes);
        }
        String base = wanted.get().base();
        List<Version> older = new ArrayList<>();
        for (CloudObject o : delegate().list(base)) {
            Version.parse(o.key())
                    .filter(v -> v.base().equals(base) && Version.ORDER.compare(v, wanted.get()) < 0)
                    .ifPresent(older::add);
        }
        older.sort(Version.ORDER.reversed());
        for (Version v : older) {
            // an older version may be garbage-collected between the listing and the read: try the next one
            Optional<byte[]> bytes = delegate().get(v.objectKey(), maxBytes);
            if (bytes.isPresent()) {
                return bytes;
            }
        }
        return Optional.empty();
    }

    /** One parsed version name: {@code base} ends with {@code #}. */
    private record Version(String objectKey, String base, long sn, String clientId) {
        static final Comparator<Version> ORDER =
                Comparator.comparingLong(Version::sn).thenComparing(Version::clientId);

        static Optional<Version> parse(String objectKey) {
            int hash = objectKey.lastIndexOf('#');
            if (hash < 0) {
                return Optional.empty();
            }
            String version = objectKey.substring(hash + 1);
            int underscore = version.indexOf('_');
            if (underscore <= 0 || underscore == version.length() - 1) {
                return Optional.empty();
            }
            String digits = version.substring(0, underscore);
            String clientId = version.substring(underscore + 1);
            if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || clientId.indexOf('/') >= 0) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Version(objectKey, objectKey.substring(0, hash + 1),
                        Long.parseLong(digits), clientId));
            } catch (NumberFormatException e) {
                return Optional.empty(); // more digits than a long holds: not a Hybris name
            }
        }
    }
}
