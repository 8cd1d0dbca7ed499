/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import picocli.CommandLine.IVersionProvider;

/** The CLI's version: the jar's implementation version, or "development" when run from classes. */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return new String[] {"hybris " + (v == null ? "(development build)" : v)};
    }
}
