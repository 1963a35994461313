package dev.fabrictwin.cli;

import picocli.CommandLine.Command;

/** {@code fabric-twin topology}: a real fabric's topology for the analyzer. */
@Command(
    name = "topology",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = "Topology from your fabric: see 'fabric-twin topology import --help'.",
    subcommands = TopologyImportCommand.class)
final class TopologyCommand {
}
