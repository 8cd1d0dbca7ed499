/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.metrics.HybrisMetrics;
import io.hybris.metrics.PrometheusEndpoint;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code hybris serve}: the CLI's daemon mode — one long-lived client that runs the configured background work
 * (latency probes, the periodic sweep) and serves its metrics for Prometheus (docs/metrics.md) until it is stopped.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run one long-lived client (latency probes and, if hybris.gc.sweep-interval is set, the periodic"
                + " sweep) and serve its metrics in Prometheus text format at http://ADDRESS:PORT/metrics until"
                + " stopped (Ctrl-C or SIGTERM).")
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = "--metrics-port", defaultValue = "9464", paramLabel = "PORT",
            description = "Port of the metrics endpoint (0: any free port; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--metrics-address", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address the metrics endpoint listens on (default ${DEFAULT-VALUE}: this machine only).")
    String address;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new CliException(ExitCode.USAGE, "--metrics-port " + port + " is not a port: use 0 to 65535");
        }
        Session session = root.session;
        session.longLived();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (StopSignal stop = StopSignal.install("hybris-serve-stop", Duration.ofSeconds(30));
             PrometheusEndpoint endpoint = start(registry)) {
            HybrisMetrics metrics = new HybrisMetrics(registry);
            metrics.bindUsage(session.hybris(metrics));
            String url = "http://" + endpoint.address().getHostString() + ":" + endpoint.address().getPort()
                    + PrometheusEndpoint.PATH;
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("metrics", url);
            doc.put("config", session.description());
            session.emit(doc, () -> session.out().println("serving metrics on " + url + " (" + session.description()
                    + "); stop with Ctrl-C"));
            session.out().flush();
            stop.await();
            session.close(); // the client and the embedded ZooKeeper, before the JVM halts
        }
        return ExitCode.OK;
    }

    /** The endpoint, bound before the client opens; a usage error naming the options if it cannot be bound. */
    private PrometheusEndpoint start(PrometheusMeterRegistry registry) {
        try {
            return PrometheusEndpoint.start(new InetSocketAddress(address, port), registry);
        } catch (UncheckedIOException e) {
            String why = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage()
                    : e.getMessage();
            throw new CliException(ExitCode.USAGE, "cannot serve metrics on " + address + ":" + port + ": " + why
                    + "; choose another --metrics-port or --metrics-address", e);
        }
    }
}
