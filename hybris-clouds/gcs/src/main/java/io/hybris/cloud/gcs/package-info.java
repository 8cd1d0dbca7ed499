/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Google Cloud Storage driver: {@link io.hybris.cloud.gcs.GcsCloudStore}, a
 * {@link io.hybris.spi.CloudStore} on one bucket (optionally under an object-name prefix) through the
 * {@code google-cloud-storage} SDK's HTTP/JSON transport, and {@link io.hybris.cloud.gcs.GcsCloudStoreProvider},
 * which creates it from {@code hybris.cloud.<id>.type=gcs}. Works with emulators (fake-gcs-server) through a
 * custom endpoint and anonymous access. No SDK type leaves this package except in
 * {@link io.hybris.cloud.gcs.GcsCloudStore.Builder#credentials}. See {@code docs/clouds-gcs.md}.
 */
package io.hybris.cloud.gcs;
