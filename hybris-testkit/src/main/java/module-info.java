/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Hybris test kit: contract suites every cloud driver, metadata store and client must pass, faulty and
 * instrumented stores for fault injection, a linearizability checker, and helpers that drive the test servers.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.hybris.testkit {
    requires transitive io.hybris.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;
    requires transitive awaitility;
    requires java.net.http;

    exports io.hybris.testkit;
}
