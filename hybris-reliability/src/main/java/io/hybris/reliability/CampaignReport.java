/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a campaign did and found: operations by kind and outcome, faults by kind, what each checker examined, and
 * the violations (none, for a campaign that passes). {@link #markdown()} is the table docs/reliability.md shows.
 *
 * @param settings   what ran
 * @param elapsed    wall time, checks included
 * @param epochs     epochs run
 * @param ops        operations by "kind outcome"
 * @param faults     faults injected by kind
 * @param checks     one line per check
 * @param violations every violation found
 */
record CampaignReport(Campaign.Settings settings, Duration elapsed, int epochs, Map<String, Long> ops,
                      Map<String, Long> faults, List<String> checks, List<String> violations) {

    CampaignReport(Campaign.Settings settings, Duration elapsed, int epochs, Tally tally, List<String> checks) {
        this(settings, elapsed, epochs, tally.opsByKindAndOutcome(), tally.faultsByKind(), List.copyOf(checks),
                tally.violations());
    }

    long totalOps() {
        return ops.values().stream().mapToLong(Long::longValue).sum();
    }

    long faultsOf(String kindPrefix) {
        return faults.entrySet().stream().filter(e -> e.getKey().startsWith(kindPrefix))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** The report as Markdown tables. */
    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("Campaign on %s, seed %d, %d epochs, %s of load (%s in all), %d clients x %d threads"
                        + " + a killed-and-restarted client JVM, %d keys per epoch, encryption %s, erasure coding %s%n%n",
                settings.metadata(), settings.seed(), epochs, minutes(settings.duration()), minutes(elapsed),
                settings.clients(), settings.threadsPerClient(), settings.keysPerEpoch(),
                settings.encrypt() ? "on" : "off",
                settings.erasure() ? "from " + (ClientConfig.ERASURE_THRESHOLD >> 10) + " KiB" : "off"));
        b.append("| operation | outcome | count |\n|---|---|---:|\n");
        ops.forEach((k, v) -> {
            int space = k.indexOf(' ');
            b.append("| ").append(k, 0, space).append(" | ").append(k.substring(space + 1)).append(" | ").append(v)
                    .append(" |\n");
        });
        b.append(String.format("| **all** | | **%d** |%n%n", totalOps()));
        b.append("| fault injected | count |\n|---|---:|\n");
        faults.forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        b.append(String.format("| **all** | **%d** |%n%n", faults.values().stream().mapToLong(Long::longValue)
                .sum()));
        b.append("Checks:\n");
        checks.forEach(c -> b.append("- ").append(c).append('\n'));
        b.append(String.format("%nViolations: %d%n", violations.size()));
        violations.stream().limit(50).forEach(v -> b.append("- ").append(v).append('\n'));
        return b.toString();
    }

    private static String minutes(Duration d) {
        return d.toMinutes() > 0 ? d.toMinutes() + " min " + d.toSecondsPart() + " s" : d.toSeconds() + " s";
    }
}
