/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.rmds.zookeeper.embedded;

import io.hybris.MetadataStoreException;

import java.nio.file.Path;

/**
 * The embedded ZooKeeper's data directory is locked by another embedded ZooKeeper (in this process or another one):
 * one at a time may use a directory. Wait for the other to close, or give each its own directory.
 */
public final class DataDirectoryInUseException extends MetadataStoreException {
    private static final long serialVersionUID = 1L;

    private final transient Path dataDirectory;

    /** The directory {@code dataDirectory} is locked by another embedded ZooKeeper. */
    public DataDirectoryInUseException(Path dataDirectory) {
        super("the embedded ZooKeeper data directory " + dataDirectory
                + " is in use by another embedded ZooKeeper; give each one its own data-dir");
        this.dataDirectory = dataDirectory;
    }

    /** The directory in use. */
    public Path dataDirectory() {
        return dataDirectory;
    }
}
