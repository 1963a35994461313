package dev.fabrictwin.cli;

import picocli.CommandLine.Command;

/** {@code fabric-twin jobs}: the scheduler's running jobs for the analyzer. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = "Jobs from your scheduler: see 'fabric-twin jobs import --help'.",
    subcommands = JobsImportCommand.class)
final class JobsCommand {
}
