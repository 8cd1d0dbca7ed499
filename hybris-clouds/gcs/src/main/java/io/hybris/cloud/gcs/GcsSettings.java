/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.gcs;

import com.google.auth.Credentials;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The validated, immutable configuration of one {@link GcsCloudStore}, as collected by
 * {@link GcsCloudStore.Builder}.
 *
 * @param cloudId            the Hybris cloud id
 * @param endpoint           the JSON API host (emulator or private endpoint), or empty for Google's
 * @param project            the project id (used to create the bucket), or empty to detect it
 * @param bucket             the bucket name
 * @param prefix             the object-name prefix inside the bucket, possibly empty
 * @param credentialSource   where the credentials come from
 * @param credentialsFile    the JSON key file, for {@link CredentialSource#FILE}
 * @param credentials        the credentials object, for {@link CredentialSource#EXPLICIT}
 * @param connectTimeout     TCP connect timeout
 * @param requestTimeout     per-attempt socket read timeout
 * @param retries            SDK retries after the first attempt
 * @param createBucket       create the bucket at start-up if it is missing
 * @param trustStore         an extra trust store (PKCS#12 or JKS) for TLS endpoints, or empty for the JDK's
 * @param trustStorePassword the trust store's password, if it has one
 */
record GcsSettings(String cloudId, Optional<URI> endpoint, Optional<String> project, String bucket, String prefix,
                   CredentialSource credentialSource, Optional<Path> credentialsFile,
                   Optional<Credentials> credentials, Duration connectTimeout, Duration requestTimeout, int retries,
                   boolean createBucket, Optional<Path> trustStore, Optional<String> trustStorePassword) {

    /** Where a store's credentials come from. */
    enum CredentialSource {
        /** Application Default Credentials (environment, gcloud, metadata server). */
        APPLICATION_DEFAULT,
        /** A JSON credentials file (service account key or other ADC-format file). */
        FILE,
        /** No credentials at all: emulators and public buckets. */
        ANONYMOUS,
        /** A {@link Credentials} object given to the builder. */
        EXPLICIT
    }

    @Override
    public String toString() {
        // never print credentials or passwords
        return "GcsSettings[" + cloudId + ", bucket=" + bucket + ", prefix=" + prefix + ", endpoint="
                + endpoint.map(URI::toString).orElse("(Google)") + ", credentials=" + credentialSource + "]";
    }
}
