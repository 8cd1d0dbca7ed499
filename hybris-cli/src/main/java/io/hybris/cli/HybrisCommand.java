/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * The top-level {@code hybris} command: the options every subcommand takes (they may be given before or after
 * the subcommand's name) and the list of subcommands.
 */
@Command(name = "hybris", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Operate a Hybris store: values on untrusted clouds, metadata on ZooKeeper or Consul.",
                "",
                "Configuration: --config FILE, else $HYBRIS_CONFIG, else the embedded default (an in-process "
                        + "ZooKeeper and three directory clouds, f=1) in --data-dir, else $HYBRIS_DATA_DIR, "
                        + "else ~/.hybris. HYBRIS_* environment variables override any key "
                        + "(hybris.deadline -> HYBRIS_DEADLINE)."},
        subcommands = {PutCommand.class, GetCommand.class, CatCommand.class, LsCommand.class, RmCommand.class,
                StatCommand.class, VersionsCommand.class, TputCommand.class, SweepCommand.class,
                RewrapCommand.class, ScrubCommand.class, MigrateCommand.class, CloudsCommand.class, BenchCommand.class,
                CostCommand.class, ServeCommand.class, GatewayCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:ok",
                "1:not found (get, cat, stat, versions of a key without a value; scrub: a key unrecoverable)",
                "2:bad usage: unknown command or option, bad argument, invalid name or range",
                "3:configuration error",
                "4:store unavailable: metadata store or clouds unreachable, deadline passed, copies left degraded",
                "5:precondition failed or conflict (--if-match, --if-absent)",
                "10:any other error"},
        footer = {"", "See docs/cli.md for every command, its --json document and the configuration."})
final class HybrisCommand implements Callable<Integer> {
    /** The run's session, set by {@link Main} before parsing; subcommands reach it through {@code @ParentCommand}. */
    Session session;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Hybris properties file (default: $HYBRIS_CONFIG, else the embedded default).")
    Path config;

    @Option(names = "--data-dir", paramLabel = "DIR", scope = ScopeType.INHERIT,
            description = "Data directory of the embedded default (default: $HYBRIS_DATA_DIR, else ~/.hybris).")
    Path dataDir;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print one JSON document on standard output instead of text.")
    boolean json;

    @Option(names = "--no-progress", scope = ScopeType.INHERIT,
            description = "Never draw progress on standard error (it is drawn only on a terminal anyway).")
    boolean noProgress;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "On failure print the stack trace too; log at INFO level.")
    boolean debug;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: one of "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
