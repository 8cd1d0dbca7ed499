/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.HybrisConfigurationException;
import io.hybris.cost.CloudPrices;
import io.hybris.cost.CostEstimate;
import io.hybris.cost.CostEstimator;
import io.hybris.cost.CostModel;
import io.hybris.cost.CostReport;
import io.hybris.cost.CostSettings;
import io.hybris.cost.Workload;
import io.hybris.spi.support.ConfigValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code hybris cost}: what the clouds' storage costs for a period (and this run's requests), by the configured
 * price sheets; {@code hybris cost estimate}: the monthly cost of a workload by replication, erasure coding and one
 * cloud.
 */
@Command(name = "cost", mixinStandardHelpOptions = true, subcommands = CostCommand.Estimate.class,
        description = {"Price what the clouds store (listed now) for a period, and the requests this run made, with "
                + "the price sheets in the configuration (hybris.cloud.<id>.price.*, docs/cost.md).",
                "The CLI is a new client on every run: its request counts are this run's (the listings). A "
                        + "long-running client reports its own with Hybris.costReport() or the metrics."})
final class CostCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = "--period", paramLabel = "DURATION", defaultValue = "730h",
            description = "How long the stored bytes are charged for (default: ${DEFAULT-VALUE}, one billing month).")
    String period;

    @Override
    public Integer call() {
        Session session = root.session;
        Duration storage = duration("--period", period);
        CostReport report = session.hybris().costReport(storage);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("periodSeconds", storage.toSeconds());
        doc.put("clouds", report.clouds().values().stream().map(c -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("cloud", c.cloudId());
            m.put("storedBytes", c.storedBytes());
            m.put("putListRequests", c.usage().putListRequests());
            m.put("getHeadRequests", c.usage().getHeadRequests());
            m.put("deleteRequests", c.usage().deleteRequests());
            m.put("bytesDownloaded", c.usage().bytesDownloaded());
            m.put("storage", c.charges().storage());
            m.put("requests", c.charges().putList() + c.charges().getHead() + c.charges().delete());
            m.put("egress", c.charges().egress());
            m.put("total", c.charges().total());
            return m;
        }).toList());
        doc.put("total", report.total().total());
        session.emit(doc, () -> {
            session.out().print(report);
            session.out().println("stored bytes charged for " + period.trim() + "; requests and egress are this run's"
                    + " (its listings); amounts in the price sheets' currency");
        });
        return ExitCode.OK;
    }

    static Duration duration(String option, String value) {
        Duration d;
        try {
            d = ConfigValues.parseDuration(option, value);
        } catch (RuntimeException e) {
            throw CliException.usage(e.getMessage());
        }
        if (d.isNegative()) {
            throw CliException.usage(option + " " + value + " is negative: give a period such as 730h or 30d");
        }
        return d;
    }

    /** {@code hybris cost estimate}: a workload priced three ways. */
    @Command(name = "estimate", mixinStandardHelpOptions = true,
            description = {"Estimate the monthly cost of a workload stored by replication on f+1 clouds, by "
                    + "erasure coding (k+f fragments) and on one cloud, with the configured price sheets, choosing "
                    + "clouds as hybris.placement=cost would. Contacts no cloud and no metadata store.",
                    "Example, the Hybris paper's Table I: --puts 1e6 --gets 1e6 --size 1048576 --stored 1TiB"})
    static final class Estimate implements Callable<Integer> {
        @ParentCommand
        CostCommand cost;

        @Option(names = "--puts", paramLabel = "N", required = true, description = "PUTs per month.")
        double puts;

        @Option(names = "--gets", paramLabel = "N", required = true, description = "GETs per month.")
        double gets;

        @Option(names = "--deletes", paramLabel = "N", defaultValue = "0", description = "DELETEs per month.")
        double deletes;

        @Option(names = "--overwrites", paramLabel = "FRACTION", defaultValue = "0",
                description = "Share of PUTs that replace a version (0 to 1).")
        double overwrites;

        @Option(names = "--size", paramLabel = "SIZE", required = true, description = "Value size, e.g. 1MiB.")
        String size;

        @Option(names = "--stored", paramLabel = "SIZE", required = true,
                description = "User bytes stored through the month, e.g. 1TiB.")
        String stored;

        @Option(names = "-k", paramLabel = "K", description = "Data fragments for erasure coding "
                + "(default: hybris.erasure.k).")
        Integer k;

        @Override
        public Integer call() {
            Session session = cost.root.session;
            io.hybris.HybrisConfig config = session.config();
            CostSettings settings = config.costs();
            Map<String, CloudPrices> prices = new LinkedHashMap<>();
            List<String> unpriced = config.clouds().stream().map(c -> c.id())
                    .filter(id -> settings.prices(id).isEmpty()).toList();
            if (!unpriced.isEmpty()) {
                throw new HybrisConfigurationException("an estimate needs a price sheet for every cloud; none for "
                        + String.join(", ", unpriced) + ": set hybris.cloud.<id>.price.storage-gb-month (docs/cost.md)");
            }
            config.clouds().forEach(c -> prices.put(c.id(), settings.prices().get(c.id())));
            Workload w;
            try {
                w = new Workload(puts, gets, deletes, ConfigValues.parseSize("--size", size),
                        ConfigValues.parseSize("--stored", stored), overwrites, 0);
            } catch (IllegalArgumentException e) {
                throw CliException.usage(e.getMessage());
            }
            int f = config.f();
            int dataChunks = k != null ? k : config.erasureDataChunks();
            CostEstimator estimator = new CostEstimator(prices, CostModel.of(settings));
            List<CostEstimate> estimates;
            try {
                estimates = List.of(estimator.replication(w, f), estimator.erasureCoding(w, dataChunks, f),
                        estimator.singleCloud(w));
            } catch (IllegalArgumentException e) {
                throw CliException.usage(e.getMessage());
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("f", f);
            doc.put("k", dataChunks);
            doc.put("estimates", estimates.stream().map(e -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("design", e.design());
                m.put("put", e.put());
                m.put("get", e.get());
                m.put("storage", e.storage());
                m.put("total", e.monthly());
                m.put("writeClouds", e.writeClouds());
                m.put("readClouds", e.readClouds());
                return m;
            }).toList());
            session.emit(doc, () -> {
                session.out().println(String.format(Locale.ROOT, "%-26s %10s %10s %10s %10s", "design (per month)",
                        "put", "get", "storage", "total"));
                for (CostEstimate e : estimates) {
                    session.out().println(String.format(Locale.ROOT, "%-26s %10.2f %10.2f %10.2f %10.2f  writes %s,"
                            + " reads %s", e.design(), e.put(), e.get(), e.storage(), e.monthly(), e.writeClouds(),
                            e.readClouds()));
                }
            });
            return ExitCode.OK;
        }
    }
}
