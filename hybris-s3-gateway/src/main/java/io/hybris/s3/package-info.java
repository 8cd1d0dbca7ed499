/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An S3-compatible gateway over one Hybris client ({@link io.hybris.s3.S3Gateway}): AWS Signature V4, buckets as
 * containers, multipart uploads, ranges, conditional requests and S3's XML errors, on the JDK's HTTP server.
 */
package io.hybris.s3;
