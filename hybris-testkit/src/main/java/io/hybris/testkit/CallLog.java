/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.spi.CloudStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One log of the puts and gets several clouds received, in the order they arrived across all of them, for tests that
 * assert which clouds a call contacted and in which order (with {@link RecordingCloudStore} each cloud keeps its own
 * log). Only objects whose name starts with the given prefix are logged (values, not latency probes). Calls are logged
 * before they are forwarded, so failed ones are logged too. Thread-safe.
 *
 * <pre>{@code
 * CallLog log = new CallLog("hybris/box/");
 * CloudStore c0 = log.wrap(new InMemoryCloudStore("c0"));
 * // ... a GET ...
 * assertThat(log.drain(c -> c.cloudId() + " " + c.op())).containsExactly("c0 GET");
 * }</pre>
 */
public final class CallLog {
    /** A logged call. */
    public enum Op { PUT, GET }

    /**
     * One call.
     *
     * @param cloudId   the cloud that received it
     * @param op        the operation
     * @param objectKey the object's name
     */
    public record Call(String cloudId, Op op, String objectKey) {
    }

    private final String prefix;
    private final List<Call> calls = new ArrayList<>();

    /** A log of calls on objects whose name starts with {@code prefix}. */
    public CallLog(String prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** {@code cloud}, its puts and gets logged here; it bounds no call, as a real cloud. */
    public CloudStore wrap(CloudStore cloud) {
        return new Logged(cloud);
    }

    /** The calls logged since the last drain, each as {@code format} renders it, oldest first; clears the log. */
    public List<String> drain(Function<Call, String> format) {
        synchronized (calls) {
            List<String> out = calls.stream().map(format).toList();
            calls.clear();
            return out;
        }
    }

    /** The calls logged since the last drain, oldest first, without clearing the log. */
    public List<Call> peek() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    private final class Logged extends ForwardingCloudStore {
        Logged(CloudStore delegate) {
            super(delegate);
        }

        private void log(Op op, String objectKey) {
            if (objectKey.startsWith(prefix)) {
                synchronized (calls) {
                    calls.add(new Call(id(), op, objectKey));
                }
            }
        }

        @Override
        public void put(String objectKey, byte[] value) {
            log(Op.PUT, objectKey);
            super.put(objectKey, value);
        }

        @Override
        public Optional<byte[]> get(String objectKey, long maxBytes) {
            log(Op.GET, objectKey);
            return super.get(objectKey, maxBytes);
        }
    }
}
