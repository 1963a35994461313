package dev.fabrictwin.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;

import dev.fabrictwin.analyzer.AnalyzerConfig;
import dev.fabrictwin.analyzer.metrics.MetricsServer;
import dev.fabrictwin.analyzer.metrics.SeriesLimits;
import dev.fabrictwin.analyzer.runtime.AnalyzerApp;
import dev.fabrictwin.analyzer.runtime.AnalyzerRun;
import dev.fabrictwin.analyzer.topology.AnalyzerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabric-twin analyze}: the Kafka Streams analyzer against a broker, with /metrics for Prometheus. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    usageHelpAutoWidth = true,
    description = {
        "Run the analyzer: read telemetry.samples, fabric.topology and fabric.jobs; write fabric.alerts "
            + "(OPEN/UPDATE/RESOLVED, keyed by alert id), fabric.job-health and, for bad records, telemetry.deadletter.",
        "Exactly-once processing; instances with the same --application-id share the work. Prometheus metrics are "
            + "served at http://HOST:PORT/metrics. Stops cleanly on Ctrl-C / SIGTERM (or after --duration).",
        "Exits 1 with one line, for a supervisor to restart it, when Kafka Streams stops on an error (the broker's ACLs "
            + "and a full state disk stop it at once) or a topic it reads is gone from the cluster (a broker back without "
            + "its data). Its changelogs and lanes get the samples topic's "
            + "replication factor unless --config sets replication.factor.",
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  fabric-twin analyze --bootstrap 127.0.0.1:9092",
        "  fabric-twin analyze --config kafka-sasl.properties --metrics-port 9405 --standby-replicas 1",
    })
final class AnalyzeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT[,...]", description = "Kafka bootstrap servers.")
    private String bootstrap;

    @Option(names = "--config", paramLabel = "FILE",
        description = "Kafka client and Streams properties (security.protocol, sasl.*, ssl.*, num.stream.threads, ...).")
    private Path config;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "", description = "Topic name prefix.")
    private String topicPrefix;

    @Option(names = "--metrics-port", defaultValue = "" + AnalyzerRun.DEFAULT_METRICS_PORT, paramLabel = "PORT",
        description = "Port of the Prometheus endpoint; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int metricsPort;

    @Option(names = "--metrics-host", defaultValue = MetricsServer.DEFAULT_HOST, paramLabel = "HOST",
        description = "Address the endpoint binds; 0.0.0.0 to be scraped from elsewhere (default: ${DEFAULT-VALUE}).")
    private String metricsHost;

    @Option(names = "--sample-interval", defaultValue = "1s", converter = DurationConverter.class, paramLabel = "TIME",
        description = "Nominal interval of the telemetry: the analysis tick (default: ${DEFAULT-VALUE}).")
    private Duration sampleInterval;

    @Option(names = "--latency-slo-us", paramLabel = "US",
        description = "P99 latency objective per port, µs: a P99 above it is reported as LATENCY_SLO whatever the port "
            + "learned (default: none; only departures from each port's own learned level are reported).")
    private Double latencySloUs;

    @Option(names = "--application-id", defaultValue = AnalyzerApp.DEFAULT_APPLICATION_ID, paramLabel = "ID",
        description = "Kafka Streams application id (default: ${DEFAULT-VALUE}).")
    private String applicationId;

    @Option(names = "--standby-replicas", defaultValue = "0", paramLabel = "N",
        description = "Warm standby copies of each task's state on other instances (default: ${DEFAULT-VALUE}).")
    private int standbyReplicas;

    @Option(names = "--instance-name", paramLabel = "NAME",
        description = "A name this instance keeps across restarts (e.g. the host or pod name): static group membership, "
            + "so a restarted instance takes its tasks back at once instead of after a rebalance. Unique per instance.")
    private String instanceName;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where Kafka Streams keeps local state (default: "
        + "kafka-streams in the OS temp dir). Written to before Kafka Streams starts: a directory that cannot be written, "
        + "or a full disk, is one line naming it and exit 1.")
    private Path stateDir;

    @Option(names = "--top-ports", defaultValue = "" + SeriesLimits.DEFAULT_PORTS, paramLabel = "N",
        description = "Ports with the largest residual exported per tick, besides ports with an open alert on a listed "
            + "device (default: ${DEFAULT-VALUE}).")
    private int topPorts;

    @Option(names = "--top-devices", defaultValue = "" + SeriesLimits.DEFAULT_DEVICES, paramLabel = "N",
        description = "Devices with series of their own on /metrics (fabric_device_*): those with an open alert first, then "
            + "the largest tx residuals, changing little from tick to tick; tier and pod aggregates cover every device "
            + "(default: ${DEFAULT-VALUE}).")
    private int topDevices;

    @Option(names = "--shards", defaultValue = "1", paramLabel = "N", description = {"Cut the analysis into N shards by "
        + "fabric domain (pods, else leaves; docs/analyzer.md \"Sharding\"): each a task any instance may run, with a "
        + "small correlation stage over their findings. Use it when one thread cannot keep up with the fabric; every "
        + "instance of an --application-id must use the same N, and N may not exceed the fabric's domains "
        + "(default: ${DEFAULT-VALUE}, the whole fabric in one task)."})
    private int shards;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Stop after this long instead of waiting for Ctrl-C.")
    private Duration duration;

    @Option(names = "--status-every", defaultValue = "10s", converter = DurationConverter.class, paramLabel = "TIME",
        description = "Print a status line this often (state, samples analyzed, unmatched names); 0 for none (default: ${DEFAULT-VALUE}).")
    private Duration statusEvery;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (statusEvery.isNegative()) {
            throw new UsageException("--status-every must not be negative");
        }
        if (metricsPort < 0 || metricsPort > 65_535 || standbyReplicas < 0 || topPorts < 0 || topDevices < 0) {
            throw new UsageException("--metrics-port must be 0..65535, --standby-replicas, --top-ports and --top-devices >= 0");
        }
        if (shards < 1) {
            throw new UsageException("--shards must be >= 1, was " + shards);
        }
        final KafkaOptions kafka = new KafkaOptions();
        kafka.bootstrap = bootstrap;
        kafka.config = config;
        kafka.topicPrefix = topicPrefix;
        final Properties client = kafka.clientConfig();
        final AnalyzerConfig defaults = AnalyzerConfig.defaults(sampleInterval.toMillis());
        if (latencySloUs != null && !(latencySloUs > 0)) {
            throw new UsageException("--latency-slo-us must be > 0, was " + latencySloUs);
        }
        final AnalyzerSettings settings = new AnalyzerSettings(kafka.topics(),
            defaults.withLatencySloUs(latencySloUs == null ? Double.NaN : latencySloUs)).withShards(shards);
        final AnalyzerRun run = AnalyzerRun.builder(client, settings).applicationId(applicationId)
            .standbyReplicas(standbyReplicas).instanceName(instanceName).stateDir(stateDir).metrics(metricsHost, metricsPort)
            .seriesLimits(new SeriesLimits(topDevices, topPorts)).statusEvery(statusEvery).duration(duration)
            .output(spec.commandLine().getErr()).build();
        StateDirCheck.require(run.streamsConfig());
        return run.run() == AnalyzerRun.Result.STOPPED ? FabricTwin.EXIT_OK : FabricTwin.EXIT_FAILURE;
    }
}
