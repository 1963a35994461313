package dev.fabrictwin.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Optional;

import dev.fabrictwin.contract.document.DocumentsUnavailableException;
import dev.fabrictwin.kafka.common.FailureCauses;
import dev.fabrictwin.kafka.common.KafkaAccessException;
import dev.fabrictwin.kafka.embedded.PortInUseException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The one launcher, {@code bin/fabric-twin}. Each subcommand is a class of its own; this class only
 * wires them and owns the exit-code contract: 0 ok, 2 bad usage or input (one line on stderr), 1 failure.
 */
@Command(
    name = "fabric-twin",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    versionProvider = VersionProvider.class,
    description = {
        "Streaming telemetry analyzer and digital twin for AI-training data-center fabrics.",
        "",
        "NIC and switch counters stream into Kafka; a Kafka Streams app compares them with a flow-level "
            + "twin of the fabric and its training jobs, and publishes culprit-vs-victim alerts.",
    },
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n",
    footerHeading = "%n",
    footer = {"Run 'fabric-twin COMMAND --help' for a command's options.",
        "Exit codes: 0 ok, 1 failure, 2 bad usage or input. Every failure is one line on stderr;",
        "FABRIC_TWIN_DEBUG=1 adds the stack trace."},
    subcommands = {DemoCommand.class, SimulateCommand.class, IngestCommand.class, TopologyCommand.class, JobsCommand.class, AnalyzeCommand.class, ReplayCommand.class,
        EvalCommand.class, WhatIfCommand.class,
        BenchCommand.class,
        BrokerCommand.class})
public final class FabricTwin implements Runnable {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_USAGE = 2;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing COMMAND");
    }

    public static void main(final String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** A configured command line; tests call this with their own out/err writers. */
    static CommandLine commandLine() {
        final CommandLine cli = new CommandLine(new FabricTwin());
        cli.setParameterExceptionHandler(FabricTwin::usageError);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> executionError(e, cmd));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        return cli;
    }

    /** Bad usage: exactly one line, naming the command and the fix, then exit 2. */
    private static int usageError(final ParameterException e, final String[] args) {
        final CommandLine cmd = e.getCommandLine();
        final String name = cmd.getCommandSpec().qualifiedName();
        String message = e.getMessage();
        if (e instanceof CommandLine.UnmatchedArgumentException u && cmd.getCommandSpec().subcommands().size() > 0
            && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            message = "unknown command '" + u.getUnmatched().get(0) + "'";
        }
        cmd.getErr().println(oneLine(name + ": " + message + " (see '" + name + " --help')"));
        cmd.getErr().flush();
        return EXIT_USAGE;
    }

    /** A failure: one line (FABRIC_TWIN_DEBUG=1 adds the stack trace), exit 2 for input the user can fix, else 1. */
    private static int executionError(final Exception e, final CommandLine cmd) {
        final PrintWriter err = cmd.getErr();
        final String name = cmd.getCommandSpec().qualifiedName();
        final boolean debug = System.getenv("FABRIC_TWIN_DEBUG") != null;
        final Optional<String> diskFull = FailureCauses.diskFull(e, "a disk it writes to");
        final int exit;
        if (e instanceof KafkaAccessException || e instanceof DocumentsUnavailableException || e instanceof CommandFailure) {
            err.println(oneLine(name + ": " + e.getMessage())); // the message names the cause and fix
            exit = EXIT_FAILURE;
        } else if (diskFull.isPresent()) { // wherever it happened, the one thing to say
            err.println(oneLine(name + ": " + diskFull.get()));
            exit = EXIT_FAILURE;
        } else if (e instanceof UsageException || e instanceof IllegalArgumentException
            || e instanceof PortInUseException
            || e instanceof UncheckedIOException) {
            err.println(oneLine(name + ": " + e.getMessage()));
            exit = EXIT_USAGE;
        } else {
            err.println(oneLine(name + ": failed: " + e + (debug ? "" : " (FABRIC_TWIN_DEBUG=1 for the stack trace)")));
            exit = EXIT_FAILURE;
        }
        if (debug) {
            e.printStackTrace(err);
        }
        err.flush();
        return exit;
    }

    static String oneLine(final String text) {
        return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
