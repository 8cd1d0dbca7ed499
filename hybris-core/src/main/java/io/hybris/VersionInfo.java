package io.hybris;

import java.util.List;

/**
 * What the metadata says about a key's current value: which version it is, where it is stored and how to
 * verify it. Returned by {@link Hybris#describe}.
 *
 * @param sequence  the timestamp's sequence number (grows by one per write of the key)
 * @param clientId  the client that wrote the version
 * @param clouds    ids of the clouds holding the value, in the order they acknowledged it
 * @param size      the value's size in bytes
 * @param sha256Hex the SHA-256 of the stored bytes, lower-case hex
 * @param version   the version's identity, unique per write: {@code <sequence>_<clientId>.<write id>} (the
 *                  write id, in base 36, tells apart two writes of one client that chose the same sequence
 *                  number); the suffix of the version's object names on the clouds
 */
public record VersionInfo(long sequence, String clientId, List<String> clouds, long size, String sha256Hex,
                          String version) {
    public VersionInfo {
        clouds = List.copyOf(clouds);
        java.util.Objects.requireNonNull(version, "version");
    }
}
