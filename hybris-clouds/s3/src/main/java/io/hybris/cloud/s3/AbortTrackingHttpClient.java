/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cloud.s3;

import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.SdkHttpClient;

/**
 * An {@link SdkHttpClient} that hands every request it prepares to the {@link InFlight} operation of the calling
 * thread, so the operation can be aborted from another thread, and tells it when each attempt starts (for the
 * body's deadline, {@link BodyDeadlines}). Otherwise it delegates unchanged.
 */
final class AbortTrackingHttpClient implements SdkHttpClient {
    private final SdkHttpClient delegate;

    AbortTrackingHttpClient(SdkHttpClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        ExecutableHttpRequest prepared = delegate.prepareRequest(request);
        InFlight operation = InFlight.current();
        if (operation != null) {
            operation.attemptStarted();
            operation.register(prepared);
        }
        return prepared;
    }

    @Override
    public String clientName() {
        return delegate.clientName();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
